package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Function lengths a reader can follow: no function of the code that
// ships (tests apart) is over maxLines lines, and at most maxLong are
// over longLines. A function that grows past them is split into named
// stages, as the engine's validator and the commands are.
const (
	maxLines  = 80
	longLines = 50
	maxLong   = 31
)

func TestFunctionLength(t *testing.T) {
	type fn struct {
		name  string
		lines int
	}
	var all, long []fn
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "../.." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				all = append(all, fn{strings.TrimPrefix(path, "../../") + ":" + fd.Name.Name, n})
				if n > longLines {
					long = append(long, all[len(all)-1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 500 {
		t.Fatalf("only %d functions found: is the walk at the module's root?", len(all))
	}
	sort.Slice(long, func(i, j int) bool { return long[i].lines > long[j].lines })
	for _, f := range long {
		if f.lines > maxLines {
			t.Errorf("%s is %d lines, over %d: split it into named stages", f.name, f.lines, maxLines)
		}
	}
	if len(long) > maxLong {
		t.Errorf("%d functions are over %d lines, more than %d; the longest: %v", len(long), longLines, maxLong, long[:5])
	}
	t.Logf("%d functions, %d over %d lines, none over %d", len(all), len(long), longLines, maxLines)
}
