package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/creditsim/creditsim/internal/suggest"
)

//go:embed library/*.yaml
var library embed.FS

// DefaultName is the built-in scenario run when none is named.
const DefaultName = "baseline"

// Names lists the built-in scenarios.
func Names() []string {
	ents, _ := library.ReadDir("library")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// Builtin returns the text of a built-in scenario.
func Builtin(name string) ([]byte, bool) {
	b, err := library.ReadFile("library/" + name + ".yaml")
	return b, err == nil
}

// Summary returns the first comment paragraph of a built-in scenario,
// which says what it demonstrates.
func Summary(name string) string {
	b, _ := Builtin(name)
	var lines []string
	for _, ln := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(ln, "#") {
			break
		}
		t := strings.TrimSpace(strings.TrimPrefix(ln, "#"))
		if t == "" {
			if len(lines) > 0 {
				break
			}
			continue
		}
		lines = append(lines, t)
	}
	return strings.Join(lines, " ")
}

// Open loads a scenario given as a file path or a built-in name (a file
// wins when both exist; a folder is never a scenario, so a folder named
// like a built-in, such as a run's output, does not hide it). The name
// used in errors is the path, or "builtin:NAME".
func Open(arg string, overrides []string) (*Scenario, error) {
	if arg == "" {
		arg = DefaultName
	}
	if fi, err := os.Stat(arg); err == nil && fi.IsDir() && !strings.ContainsAny(arg, "/\\") {
		if b, ok := Builtin(arg); ok {
			return Load("builtin:"+arg, b, overrides)
		}
	}
	if data, err := ReadInput(arg); err == nil {
		return Load(arg, data, overrides)
	} else if !os.IsNotExist(err) || strings.ContainsAny(arg, "/\\") || filepath.Ext(arg) != "" {
		if b, ok := Builtin(arg); ok && os.IsNotExist(err) {
			return Load("builtin:"+arg, b, overrides)
		}
		return nil, Errors{{File: arg, Reason: fmt.Sprintf("cannot read scenario: %v", unwrapPathError(err))}}
	}
	if b, ok := Builtin(arg); ok {
		return Load("builtin:"+arg, b, overrides)
	}
	return nil, Errors{{File: arg, Reason: "no such file, and no built-in scenario of that name" + suggest.DidYouMean(arg, Names()) + " (built-ins: " + strings.Join(Names(), ", ") + ")"}}
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// MaxInputBytes is the largest scenario or sweep file read (a fixed
// limit, the same on every machine).
const MaxInputBytes = 4 << 20

// ReadInput reads a scenario or sweep file: it must be a regular file
// (not a device or a pipe, which could be endless or block) of at most
// MaxInputBytes.
func ReadInput(path string) ([]byte, error) {
	// Stat first: opening a pipe would block until someone writes to it.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: path, Err: errors.New("not a regular file")}
	}
	if fi.Size() > MaxInputBytes {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %d MiB", MaxInputBytes>>20)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxInputBytes+1))
	if err == nil && len(b) > MaxInputBytes {
		err = &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %d MiB", MaxInputBytes>>20)}
	}
	return b, err
}
