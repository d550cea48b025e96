package runner

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/creditsim/creditsim/results"

	"github.com/creditsim/creditsim/scenarios"
)

var imgSrc = regexp.MustCompile(`<img src="([^"]+)"`)

// TestReport runs a small scenario to a folder and checks report.html:
// it holds the headline table and the scenario, every image it
// references exists and is a PNG, and every PNG written is referenced.
// Where Chromium is installed, it renders the page headless and checks
// the screenshot is not blank.
func TestReport(t *testing.T) {
	t.Parallel()
	skipLong(t)
	s, err := scenarios.Load("gpu.yaml", []byte(gpuScenario("2")), []string{"replications=2", "hosts.initial=120",
		"hosts.agents=[{kind: benchmark_inflation, share: 0.05, k: 3}]", "policies=[v1peak, v3pfc-boinc, v3pfc-design-v29]"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(s, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var summary results.Summary
	if err := json.Unmarshal(sum, &summary); err != nil {
		t.Fatal(err)
	}
	success := strconv.FormatFloat(100*float64(summary.Outcomes["success"]), 'f', 2, 64) + "%"
	for _, want := range []string{"<table>", "<td>v3pfc-boinc</td>", "honest_ratio", "cheat_ratio", "min_quorum",
		"How results ended", "<td>" + success + "</td>"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	refs := map[string]bool{}
	for _, m := range imgSrc.FindAllSubmatch(html, -1) {
		name := string(m[1])
		refs[name] = true
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("report.html references %s: %v", name, err)
			continue
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		f.Close()
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	for _, p := range pngs {
		if !refs[filepath.Base(p)] {
			t.Errorf("%s is not in report.html", filepath.Base(p))
		}
	}
	for _, must := range []string{"scorecard.png", "host-neutrality.png", "device-neutrality.png", "gd-efficiency.png",
		"cheat-resistance.png", "dynamics-v3pfc-boinc.png", "rac-v1peak.png"} {
		if !refs[must] {
			t.Errorf("no %s in the report", must)
		}
	}
	// One project: a plot comparing projects would say nothing.
	if refs["project-neutrality.png"] {
		t.Error("project-neutrality.png drawn for a single-project scenario")
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Log("chromium not installed: the headless rendering check is skipped")
		return
	}
	shot := filepath.Join(t.TempDir(), "shot.png")
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--screenshot="+shot, "--window-size=1200,3000", "file://"+filepath.Join(dir, "report.html"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if n := distinctColours(img); n < 50 {
		t.Errorf("the rendered report has only %d colours: blank?", n)
	}
}

func distinctColours(img image.Image) int {
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	return len(seen)
}
