package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite docs/replay.md's example replay from this run")

const (
	replayBegin  = "<!-- replay-example:begin (go test ./cmd/creditsim/internal/cli -run TestReadmeReplayExample -update-readme) -->\n"
	replayFinish = "<!-- replay-example:end -->"
)

// TestReadmeReplayExample: the example replay docs/replay.md shows is what
// creditsim replay prints on the repository's fixture of public task
// pages, figure for figure.
func TestReadmeReplayExample(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	fixture := "cmd/creditsim/internal/replay/testdata/first_system_tasks.csv"
	wd, _ := os.Getwd()
	root := filepath.Join(wd, "..", "..", "..", "..")
	cwd, _ := os.Getwd()
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(cwd)
	if code := Main([]string{"replay", fixture, "-o", filepath.Join(dir, "out")}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := strings.ReplaceAll(stdout.String(), filepath.Join(dir, "out"), "out/replay-first_system_tasks")
	want := "```\n$ creditsim replay " + fixture + "\n" + out + "```\n"
	readme, err := os.ReadFile("docs/replay.md")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(readme, []byte(replayBegin))
	j := bytes.Index(readme, []byte(replayFinish))
	if i < 0 || j < i {
		t.Fatalf("docs/replay.md has no example replay between %q and %q", strings.TrimSpace(replayBegin), replayFinish)
	}
	got := string(readme[i+len(replayBegin) : j])
	if got == want {
		return
	}
	if !*updateReadme {
		t.Fatalf("docs/replay.md's example replay is not what the tool prints (go test ./cmd/creditsim/internal/cli -run TestReadmeReplayExample -update-readme rewrites it):\n%s", want)
	}
	next := append(append(append([]byte(nil), readme[:i+len(replayBegin)]...), want...), readme[j:]...)
	if err := os.WriteFile("docs/replay.md", next, 0o644); err != nil {
		t.Fatal(err)
	}
}
