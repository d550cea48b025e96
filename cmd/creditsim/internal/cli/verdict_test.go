package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/attack"
	"github.com/creditsim/creditsim/internal/embedded"
	"github.com/creditsim/creditsim/internal/longtest"
	"github.com/creditsim/creditsim/results"
)

// TestVerdictSearchCommand: `creditsim verdict --search` prints, for each
// kind, the `creditsim attack` command of the same search, and that
// command run alone finds the same worst behaviour with the same figures
// (so a search can be spread over machines with attack's --shard).
func TestVerdictSearchCommand(t *testing.T) {
	longtest.Skip(t, "a small verdict of one kind, its search, and the same search alone: about 40 s")
	var out, errb bytes.Buffer
	args := []string{"verdict", "--kind", "sizes", "--hosts", "30", "--replications", "1", "--search", "--budget", "15", "-j", "2"}
	if code := Main(args, &out, &errb); code != 0 {
		t.Fatalf("verdict: exit %d: %s", code, errb.String())
	}
	text := out.String()
	const lead = "The same search alone: `"
	i := strings.Index(text, lead)
	if i < 0 {
		t.Fatalf("verdict --search printed no attack command:\n%s", text)
	}
	line := text[i+len(lead):]
	line = line[:strings.Index(line, "`")]
	words, err := shellWords(line)
	if err != nil || len(words) < 3 || words[0] != "creditsim" || words[1] != "attack" {
		t.Fatalf("not a creditsim attack command (%v): %s", err, line)
	}
	dir := filepath.Join(t.TempDir(), "attack")
	out.Reset()
	if code := Main(append(words[1:], "-q", "-j", "1", "-o", dir), &out, &errb); code != 0 {
		t.Fatalf("%s: exit %d: %s", line, code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "attack.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep attack.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Worst) == 0 {
		t.Fatal("the attack alone found no worst behaviour")
	}
	for _, w := range rep.Worst {
		want := w.Behaviour.String() + ", " + w.Figure + " " + intervalText(w.Confirmed) + ", honest accounts keep " + intervalText(w.Harm)
		if !strings.Contains(text, want) {
			t.Errorf("the attack alone (-j 1) found %q; verdict --search (-j 2) printed:\n%s", want, text[strings.Index(text, "**Searched**"):])
		}
	}
}

// shellWords splits a command line as a POSIX shell would, for the
// quoting quoteArg writes: plain words and '...' (with '\” for a quote).
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '\'':
			quoted, in = true, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if quoted {
		return nil, os.ErrInvalid
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

var updateSearch = flag.Bool("update-search", false, "rewrite the searched blocks of README, docs/verdict.md and docs/attack.md from this run")

// searchEnv runs the search tier (TestVerdictSearch, TestV4trustAttacks):
// attack searches at the size README states, longer than CI's long tier
// affords.
const searchEnv = "CREDITSIM_SEARCHTEST"

// searchTier skips t unless the search tier runs; what says what it runs.
func searchTier(t *testing.T, what string) {
	t.Helper()
	if os.Getenv(searchEnv) != "1" || testing.Short() {
		t.Skipf("%s: runs with %s=1", what, searchEnv)
	}
}

const (
	searchBegin  = "<!-- verdict-search:begin (creditsim verdict --search; CREDITSIM_SEARCHTEST=1 go test ./cmd/creditsim/internal/cli -run 'TestVerdictSearch$' -update-search) -->\n"
	searchFinish = "<!-- verdict-search:end -->"
)

// TestVerdictSearch runs `creditsim verdict --search` as README states it
// and checks that docs/verdict.md shows its search exactly, and README
// its answers (without the heading and each search's command). About 40 minutes on 2 cores:
// it runs only with CREDITSIM_SEARCHTEST=1.
func TestVerdictSearch(t *testing.T) {
	searchTier(t, "four attack searches at the verdict's size (about 40 minutes on 2 cores with another job running)")
	var out, errb bytes.Buffer
	if code := Main([]string{"verdict", "--search"}, &out, &errb); code != 0 {
		t.Fatalf("verdict --search: exit %d: %s", code, errb.String())
	}
	doc, short := searchedBlocks(out.String())
	if doc == "" {
		t.Fatalf("verdict --search printed no search:\n%s", out.String())
	}
	root := filepath.Join("..", "..", "..", "..")
	embedded.Check(t, filepath.Join(root, "docs", "verdict.md"), searchBegin, searchFinish, doc, "what creditsim verdict --search prints", *updateSearch)
	embedded.Check(t, filepath.Join(root, "README.md"), searchBegin, searchFinish, short, "what creditsim verdict --search prints, without the commands", *updateSearch)
}

// searchedBlocks are the search part of verdict --search's output, whole
// (for docs/verdict.md), and its answers alone, without the heading and
// each search's command (README, whose text says what they are).
func searchedBlocks(text string) (whole, short string) {
	i := strings.Index(text, "**Searched**")
	if i < 0 {
		return "", ""
	}
	whole = strings.TrimLeft(text[i:], "\n")
	var keep []string
	for _, l := range strings.SplitAfter(whole, "\n") {
		if strings.HasPrefix(l, "* ") {
			keep = append(keep, l)
		}
	}
	return whole, strings.Join(keep, "")
}

// TestIntervalText: a search's figure is written with its interval, or
// with why it has none.
func TestIntervalText(t *testing.T) {
	nan := results.Num(math.NaN())
	for _, c := range []struct {
		iv   attack.Interval
		want string
	}{
		{attack.Interval{Mean: 1.08, Low: 1.02, High: 1.15, Replications: 3}, "1.08 [1.02, 1.15]"},
		{attack.Interval{Mean: 775, Low: nan, High: nan, Replications: 1}, "775 (one seed gave a figure: no interval)"},
		{attack.Interval{Mean: nan, Low: nan, High: nan}, "–"},
		{attack.Interval{Mean: results.Num(math.Inf(1)), Low: 2, High: results.Num(math.Inf(1)), Replications: 3}, "unbounded [2, unbounded]"},
	} {
		if got := intervalText(c.iv); got != c.want {
			t.Errorf("intervalText(%+v) = %q, want %q", c.iv, got, c.want)
		}
	}
}
