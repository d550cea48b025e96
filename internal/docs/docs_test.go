package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// terms are the glossary's entries a page must link where it first uses
// them: each anchor of docs/glossary.md and the words that name it.
var terms = []struct{ id, re string }{
	{"cobblestone", `\bCobblestones?\b`},
	{"g-d", `\bG/D\b`},
	{"host-spread", `\bhost spread\b`},
	{"device-neutrality", `\bdevice neutrality\b`},
	{"project-neutrality", `\bproject neutrality\b`},
	{"honest-twin", `\bhonest twins?\b`},
	{"regime", `\bregimes?\b`},
	{"quorum", `\bquorums?\b`},
	{"peak-flops", `\bpeak FLOPS\b`},
	{"rsc_fpops_est", `\brsc_fpops_est\b`},
	{"rsc_fpops_est", `\bE\(J\)`},
	{"flops_estimate", `\bflops_estimate\b`},
	{"creditnew", `\bCreditNew\b`},
	{"pfc", `\bPFC\b`},
	{"pfc", `\bNPFC\b`},
	{"scale-v", `\bScale\(V\)`},
	{"scale-h", `\bScale\(H\)`},
	{"min_avg_pfc", `\bmin_avg_pfc\b`},
	{"average", `\bAVERAGE\b`},
	{"average", `\bpegged\b`},
	{"update_average", `\bupdate_average\b`},
	{"av_cache", `\bav_cache\b`},
	{"rac", `\bRAC\b`},
	{"runtime-outlier", `\bruntime outliers?\b`},
	{"anonymous-platform", `\banonymous[ -]platform\b`},
	{"science-united", `\bScience United\b`},
	{"gridcoin", `\bGridcoin\b`},
}

var (
	link   = regexp.MustCompile(`\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)`)
	anchor = regexp.MustCompile(`<a id="([a-z0-9_-]+)"></a>`)
	code   = regexp.MustCompile("`[^`]*`")
)

type page struct {
	name  string // as linked from docs/: glossary.md, ../README.md
	lines []string
}

func pages(t *testing.T) []page {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) < 5 {
		t.Fatalf("docs/: %d pages (%v)", len(files), err)
	}
	files = append(files, "../../README.md")
	var out []page
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page{filepath.Base(f), strings.Split(string(b), "\n")})
	}
	return out
}

var generated = regexp.MustCompile(`^<!-- [a-z-]+:(begin|end)`)

// prose reports, for each line, whether it is running text: not inside
// a fenced block or a block a command generates (between "<!-- x:begin"
// and "<!-- x:end", which tests compare with the command's output), not
// a heading, not an HTML comment.
func prose(lines []string) []bool {
	ok := make([]bool, len(lines))
	fenced, gen := false, false
	for i, l := range lines {
		s := strings.TrimSpace(l)
		if strings.HasPrefix(s, "```") {
			fenced = !fenced
			continue
		}
		if m := generated.FindStringSubmatch(s); m != nil {
			gen = m[1] == "begin"
		}
		ok[i] = !fenced && !gen && !strings.HasPrefix(s, "#") && !strings.HasPrefix(s, "<!--")
	}
	return ok
}

// glossaryAnchors are the ids the glossary defines.
func glossaryAnchors(t *testing.T, ps []page) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	for _, p := range ps {
		if p.name == "glossary.md" {
			for _, l := range p.lines {
				for _, m := range anchor.FindAllStringSubmatch(l, -1) {
					ids[m[1]] = true
				}
			}
		}
	}
	return ids
}

// TestTermsLinkedAtFirstUse: on every page but the glossary, the first
// use of a glossary term in running text (outside links to elsewhere) is
// a link to its entry, so a reader who opens any one page can look each
// word up where they meet it.
func TestTermsLinkedAtFirstUse(t *testing.T) {
	ps := pages(t)
	ids := glossaryAnchors(t, ps)
	for _, tm := range terms {
		if !ids[tm.id] {
			t.Errorf("glossary.md has no anchor %q", tm.id)
		}
	}
	for _, p := range ps {
		if p.name == "glossary.md" {
			continue
		}
		prefix := "glossary.md#"
		if p.name == "README.md" {
			prefix = "docs/glossary.md#"
		}
		ok := prose(p.lines)
		for _, tm := range terms {
			re := regexp.MustCompile(tm.re)
			if line, col, linked := firstUse(p.lines, ok, re, prefix+tm.id); line >= 0 && !linked {
				t.Errorf("%s:%d:%d: first use of %s is not a link to %s%s: %.80q", p.name, line+1, col+1, tm.re, prefix, tm.id, p.lines[line][col:])
			}
		}
	}
}

// firstUse finds the first match of re in running text outside links
// that go elsewhere, and reports whether it lies in a link to target.
func firstUse(lines []string, prose []bool, re *regexp.Regexp, target string) (line, col int, linked bool) {
	for i, l := range lines {
		if !prose[i] {
			continue
		}
		links := link.FindAllStringSubmatchIndex(l, -1)
		for _, m := range re.FindAllStringIndex(l, -1) {
			in, to := "", false
			for _, k := range links {
				if m[0] >= k[0] && m[1] <= k[1] {
					in = l[k[4]:k[5]]
					to = m[1] <= k[3] // in the link's text, not its address
				}
			}
			switch {
			case in == target && to:
				return i, m[0], true
			case in != "":
				continue // a link to elsewhere (or the match is an address)
			}
			return i, m[0], false
		}
	}
	return -1, 0, false
}

// TestRelativeLinks: every relative link of README and docs/ names a
// file that exists, and a glossary anchor that exists.
func TestRelativeLinks(t *testing.T) {
	ps := pages(t)
	ids := glossaryAnchors(t, ps)
	for _, p := range ps {
		dir := "../../docs"
		if p.name == "README.md" {
			dir = "../.."
		}
		for i, l := range p.lines {
			l = code.ReplaceAllString(l, "")
			for _, m := range link.FindAllStringSubmatch(l, -1) {
				target := m[2]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
					continue
				}
				file, frag, _ := strings.Cut(target, "#")
				if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
					t.Errorf("%s:%d: link to %s: no such file", p.name, i+1, target)
					continue
				}
				if filepath.Base(file) == "glossary.md" && frag != "" && !ids[frag] {
					t.Errorf("%s:%d: link to %s: the glossary has no such entry", p.name, i+1, target)
				}
			}
		}
	}
}

// TestReadmeShort: README stays under 3,000 words, the answer up top and
// reference in docs/ (the design's rule), counted as wc -w counts.
func TestReadmeShort(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(b))); n >= 3000 {
		t.Errorf("README.md is %d words; keep it under 3,000 and move reference to docs/", n)
	}
}
