package tables

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/internal/inputlimit"
)

// dirSource is a folder of table files whose required tables but host
// and result are empty; the columns a fit needs that a file lacks are
// added, NULL in every row.
func dirSource(t *testing.T, files map[string]string) Dir {
	t.Helper()
	dir := t.TempDir()
	for _, name := range Required {
		files[name+".tsv"] = files[name+".tsv"] + ""
		if files[name+".tsv"] == "" {
			files[name+".tsv"] = strings.Join(codecs[name].key, "\t") + "\n"
		}
	}
	for file, text := range files {
		c := codecs[strings.TrimSuffix(file, ".tsv")]
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		for _, k := range c.need {
			if !slices.Contains(strings.Split(lines[0], "\t"), k) {
				lines[0] += "\t" + k
				for i := 1; i < len(lines); i++ {
					lines[i] += "\t\\N"
				}
			}
		}
		files[file] = strings.Join(lines, "\n") + "\n"
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Dir(dir)
}

// TestIdentity: a row with no ID or an ID already read is left out and
// counted, so rows exported twice count once; composite keys
// (host_app_version) too.
func TestIdentity(t *testing.T) {
	hosts := "id\tp_ncpus\n1\t4\n2\t8\n\\N\t2\n0\t2\n"
	src := dirSource(t, map[string]string{
		"host.tsv":             hosts + strings.TrimPrefix(hosts, "id\tp_ncpus\n"),
		"result.tsv":           "id\thostid\n" + strings.Repeat("7\t1\n", 1000) + "9\t2\n",
		"host_app_version.tsv": "host_id\tapp_version_id\n1\t3\n1\t3\n1\t4\n0\t4\n",
	})
	var results []int64
	set, err := Read(src, func(_ *Set, r *Result) error { results = append(results, r.ID); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Hosts) != 2 || set.Hosts[0].NCPUs != 4 || set.Hosts[1].NCPUs != 8 {
		t.Errorf("hosts %+v; want ids 1 and 2 once, their first rows", set.Hosts)
	}
	if want := (Dropped{NoID: 4, Duplicate: 2, FirstDuplicate: "id 1"}); set.Dropped["host"] != want {
		t.Errorf("host dropped %+v; want %+v", set.Dropped["host"], want)
	}
	if len(results) != 2 || set.Dropped["result"].Duplicate != 999 {
		t.Errorf("results %v, dropped %+v; want 7 and 9 once, 999 repeats", results, set.Dropped["result"])
	}
	if d := set.Dropped["host_app_version"]; len(set.HostAppVersions) != 2 || d.Duplicate != 1 || d.NoID != 1 || d.FirstDuplicate != "host_id 1, app_version_id 3" {
		t.Errorf("host_app_version: %d rows, dropped %+v", len(set.HostAppVersions), d)
	}
	if _, ok := set.Dropped["app"]; ok {
		t.Errorf("app dropped %+v from an empty table", set.Dropped["app"])
	}
	if s := set.Dropped["host"].String(); !strings.Contains(s, "4 rows with no ID") || !strings.Contains(s, "2 rows repeating an ID already read (the first: id 1) counted once") {
		t.Errorf("String: %s", s)
	}
}

// TestPagedSet: far-apart and neighbouring IDs are told apart.
func TestPagedSet(t *testing.T) {
	var s pagedSet
	for _, x := range []int64{1, 2, 63, 64, 4095, 4096, 1 << 40, 1<<40 + 1} {
		if !s.add(x) {
			t.Errorf("%d: not new", x)
		}
	}
	for _, x := range []int64{1, 64, 4096, 1 << 40} {
		if s.add(x) {
			t.Errorf("%d: new twice", x)
		}
	}
}

// TestTwoFiles: two files for one table are refused, naming both.
func TestTwoFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"host.tsv", "host.csv.gz"} {
		os.WriteFile(filepath.Join(dir, f), []byte("id\n1\n"), 0o644)
	}
	_, err := Find(dir, "host")
	if err == nil || !strings.Contains(err.Error(), "two files for the host table") || !strings.Contains(err.Error(), "host.csv.gz") {
		t.Errorf("Find: %v", err)
	}
	if _, err := Dir(dir).Read("host", func(any) error { return nil }); err == nil {
		t.Error("Read of two host files: no error")
	}
}

// TestLimits: a table file beyond an input limit is refused naming the
// file, line and limit: a header too wide (its names shown in part,
// quoted), a line too long, a compressed file of NULs.
func TestLimits(t *testing.T) {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte("id\tname\n1\t"))
	w.Write(make([]byte, 2<<20))
	w.Close()
	for _, c := range []struct {
		name, file string
		data       []byte
		want       []string
	}{
		{"wide header", "platform.tsv", []byte("id\t" + strings.Repeat("\x1b[31m\t", 2000) + "\n"), []string{"platform.tsv:1", "2002 columns", "--limit columns="}},
		{"long line", "platform.tsv", []byte("id\tname\n1\t" + strings.Repeat("x", 2<<20) + "\n"), []string{"platform.tsv:2", "the line limit", "--limit line=2MiB"}},
		{"NULs, gzip", "platform.tsv.gz", z.Bytes(), []string{"platform.tsv.gz:2", "the line limit"}},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, c.file), c.data, 0o644)
		_, err := Dir(dir).Read("platform", func(any) error { return nil })
		if err == nil {
			t.Errorf("%s: read", c.name)
			continue
		}
		if !errors.Is(err, inputlimit.ErrLimit) || strings.Count(err.Error(), c.file) != 1 {
			t.Errorf("%s: %v; want an input limit", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.name, err, w)
			}
		}
		if strings.Contains(err.Error(), "\x1b") || len(err.Error()) > 1000 {
			t.Errorf("%s: error of %d bytes, or with a terminal escape: %q", c.name, len(err.Error()), err)
		}
	}
	// A header naming no key, wide but within the limit: the names shown
	// in part, quoted.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "platform.tsv"), []byte(strings.Repeat("\x1b[2J\t", 900)+"\n"), 0o644)
	_, err := Dir(dir).Read("platform", func(any) error { return nil })
	if err == nil || len(err.Error()) > 400 || strings.Contains(err.Error(), "\x1b") || !strings.Contains(err.Error(), "more") {
		t.Errorf("a wide header without id: %q", err)
	}
}
