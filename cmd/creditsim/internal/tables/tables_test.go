package tables

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestWriteRead: rows written as `mysql --batch` prints them read back
// exactly, whatever their text holds (tabs, newlines, backslashes, NUL)
// and however long their numbers' digits run.
func TestWriteRead(t *testing.T) {
	want := []Host{
		{ID: 1, UserID: 7, CreateTime: 1767225600, RPCTime: 1769817600, OnFrac: 0.48426247118017403, NCPUs: 12,
			PFpops: 2.987295837005945e9, OSName: "Microsoft Windows 11", SerialNum: "[BOINC|8.0.4][CUDA|GeForce RTX 3060|1|12288MB|0|0]"},
		{ID: 2, OSName: "tab\there, newline\nthere, back\\slash, \x00 and \\N", Misc: `{"gpus":[{"type":"nvidia","count":2}]}`, PGPUFpops: 1e-300},
	}
	dir := t.TempDir()
	var b bytes.Buffer
	w := NewWriter(&b, "host")
	for i := range want {
		if err := w.Write(&want[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 3 {
		t.Errorf("%d lines, want a header and 2 rows:\n%s", n, b.String())
	}
	os.WriteFile(filepath.Join(dir, "host.tsv"), b.Bytes(), 0o644)
	var got []Host
	if _, err := Dir(dir).Read("host", func(r any) error { got = append(got, *r.(*Host)); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, want)
	}
}

// TestRead: a table is read from TSV or CSV under BOINC's names, its
// columns in any order, with a table prefix or extra columns; NULL is
// zero; a bad file is said with its file, line, column, field and value.
func TestRead(t *testing.T) {
	for _, c := range []struct {
		name, file, text string
		want             []Platform
		err              string
	}{
		{"tsv", "platform.tsv", "name\tid\textra\nwindows_x86_64\t1\tx\n\\N\t2\ty\n", []Platform{{1, "windows_x86_64"}, {2, ""}}, ""},
		{"csv with prefix", "platform.csv", "platform.id,platform.name\n1,\"x86_64-pc-linux-gnu\"\n", []Platform{{1, "x86_64-pc-linux-gnu"}}, ""},
		{"crlf", "platform.tsv", "id\tname\r\n3\tandroid\r\n", []Platform{{3, "android"}}, ""},
		{"no key", "platform.tsv", "name\nwin\n", nil, `platform.tsv:1: no column id (each row's identity; the header names "name")`},
		{"bad id", "platform.tsv", "id\tname\n1\twin\nx1\tlinux\n", nil, `platform.tsv:3:1: platform.id: "x1": want a whole number`},
		{"short row", "platform.tsv", "id\tname\n1\n", nil, "platform.tsv:2: 1 fields, but the header names 2 columns"},
		{"empty", "platform.tsv", "", nil, "platform.tsv: empty: no header line naming the columns"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, c.file), []byte(c.text), 0o644)
			var got []Platform
			_, err := Dir(dir).Read("platform", func(r any) error { got = append(got, *r.(*Platform)); return nil })
			if c.err != "" {
				var te *Error
				if err == nil || !strings.HasSuffix(err.Error(), c.err) || !errors.As(err, &te) {
					t.Fatalf("error %v, want one ending %q", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

// TestNumbers: a double column read into a whole one keeps its whole
// part (a schema storing times as doubles); a number out of range or
// not finite is refused.
func TestNumbers(t *testing.T) {
	c := codecs["result"]
	v := reflect.New(c.typ).Elem()
	for _, x := range []struct {
		col, text string
		ok        bool
	}{
		{"sent_time", "1767225600.75", true}, {"sent_time", "1e30", false}, {"elapsed_time", "1e400", false},
		{"elapsed_time", "NaN", false}, {"elapsed_time", "-0.5", true}, {"name", "anything", true},
	} {
		err := c.setValue(v, c.byName[x.col], x.text)
		if (err == nil) != x.ok {
			t.Errorf("%s = %q: error %v, want ok %v", x.col, x.text, err, x.ok)
		}
	}
	if got := v.FieldByName("SentTime").Int(); got != 1767225600 {
		t.Errorf("sent_time 1767225600.75 read as %d", got)
	}
}

// TestSQL: the schema and load statements name every column creditsim
// writes, in the files' order, and quote the file's name.
func TestSQL(t *testing.T) {
	create := CreateTable("host_app_version")
	if !strings.Contains(create, "PRIMARY KEY (`host_id`, `app_version_id`)") || !strings.Contains(create, "`et_avg` double") {
		t.Errorf("CREATE TABLE:\n%s", create)
	}
	load := LoadData("host", "it's.tsv")
	if !strings.Contains(load, "'it''s.tsv'") || !strings.Contains(load, "(`"+strings.Join(Columns("host"), "`, `")+"`)") {
		t.Errorf("LOAD DATA: %s", load)
	}
}

// TestNeededColumn: a file without a column a fit cannot do without is
// refused at its header, naming the column and what the fit reads it
// for.
func TestNeededColumn(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "app.tsv"), []byte("id\n1\n"), 0o644)
	_, err := Dir(dir).Read("app", func(any) error { return nil })
	want := `app.tsv:1: no column name (a fit cannot do without it: the apps' names, by which the scenario and --app name them; the header names "id")`
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error %v, want one ending %q", err, want)
	}
	for table, c := range codecs {
		for _, k := range c.need {
			if needs[table+"."+k] == "" {
				t.Errorf("%s.%s is needed, and no sentence says what for", table, k)
			}
		}
	}
}
