package statsdump

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestReadFormats: both GPU formats db_dump has written are read (the
// <coprocs> summary before 2025-11, the misc JSON since), and what Write
// writes reads back the same.
func TestReadFormats(t *testing.T) {
	const old = `<?xml version="1.0" encoding="utf-8"?>
<hosts>
<host>
    <id>7</id>
    <userid>3</userid>
    <total_credit>1234.5</total_credit>
    <os_name>Microsoft Windows 10</os_name>
    <coprocs>[CUDA|NVIDIA GeForce RTX 3060|2|12288MB|53112|300][INTEL|Intel(R) UHD Graphics 630|1|6383MB||300]</coprocs>
  <create_time>1700000000</create_time>
  <rpc_time>1710000000</rpc_time>
  <ncpus>12</ncpus>
  <p_fpops>4500000000.000000</p_fpops>
  <p_iops>15000000000.000000</p_iops>
</host>
<host>
    <id>8</id>
    <total_credit>1</total_credit>
    <os_name>Linux Ubuntu</os_name>
    <misc><![CDATA[{"client_version": "8.2.4", "gpus": [{"type": "amd", "model": "Radeon RX 6800", "count": 1, "ram_mb": 16368, "driver_version": "", "opencl_version": "200"}]}]]></misc>
  <create_time>1700000100</create_time>
  <rpc_time>1700000200</rpc_time>
  <ncpus>8</ncpus>
  <p_fpops>3000000000.000000</p_fpops>
  <p_iops>9000000000.000000</p_iops>
</host>
</hosts>
`
	hs, err := read("host.gz", strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	want := []Host{
		{ID: 7, UserID: 3, TotalCredit: 1234.5, OSName: "Microsoft Windows 10", CreateTime: 1700000000, RPCTime: 1710000000, NCPUs: 12,
			PFpops: 4.5e9, PIops: 1.5e10, GPUs: []GPU{{"nvidia", "NVIDIA GeForce RTX 3060", 2}, {"intel", "Intel(R) UHD Graphics 630", 1}}},
		{ID: 8, TotalCredit: 1, OSName: "Linux Ubuntu", CreateTime: 1700000100, RPCTime: 1700000200, NCPUs: 8,
			PFpops: 3e9, PIops: 9e9, GPUs: []GPU{{"amd", "Radeon RX 6800", 1}}},
	}
	if !reflect.DeepEqual(hs, want) {
		t.Errorf("read\n%+v\nwant\n%+v", hs, want)
	}
	var b bytes.Buffer
	if err := Write(&b, hs); err != nil {
		t.Fatal(err)
	}
	back, err := read("host.gz", &b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, want) {
		t.Errorf("written and read back\n%+v\nwant\n%+v", back, want)
	}
}

// TestReadRefuses: what is not an export with details is refused, saying why.
func TestReadRefuses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"<users><user><id>1</id></user></users>", "no <hosts> element"},
		{"<hosts></hosts>", "no <host> in the export"},
		{"<hosts><host><id>1</id><total_credit>5</total_credit></host></hosts>", "without <detail/>"},
		{"<hosts><host><id>1</id><create_time>10</create_time><rpc_time>5</rpc_time></host></hosts>", "rpc_time 5 before create_time 10"},
		{"<hosts><host><id>1</id><create_time>10</create_time><rpc_time>50</rpc_time><misc>{gpus</misc></host></hosts>", "misc: not JSON"},
		{"<hosts><host><id>1", "not db_dump's host XML"},
	} {
		if _, err := read("host.gz", strings.NewReader(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v, want %q", c.in, err, c.want)
		}
	}
}

// TestUsers: a user table as db_dump writes it (teamid only for users in
// a team) reads back; a file that is not one says so.
func TestUsers(t *testing.T) {
	dir := t.TempDir()
	want := []User{{ID: 1, TeamID: 5}, {ID: 2}, {ID: 9, TeamID: 5}}
	var b bytes.Buffer
	if err := WriteUsers(&b, want); err != nil {
		t.Fatal(err)
	}
	path := dir + "/user.gz"
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadUsers(path)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("read %+v, %v; want %+v", got, err, want)
	}
	os.WriteFile(path, []byte("<hosts></hosts>"), 0o644)
	if _, err := ReadUsers(path); err == nil || !strings.Contains(err.Error(), "no <users> element") {
		t.Errorf("a host table read as users: %v", err)
	}
}
