package replay

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/internal/inputlimit"
	"github.com/creditsim/creditsim/policy"
	"github.com/klauspost/compress/gzip"
)

// traceText is a small trace: its header (as edit leaves it) and rows.
func traceText(t *testing.T, edit func(h *Header), rows ...string) string {
	t.Helper()
	h := Header{ValidatorPeriod: 60, FeederPeriod: 600, End: 86400 * 10,
		World: &policy.World{Apps: []policy.App{{ID: 0, Name: "a", MinQuorum: 1, TargetNResults: 1}},
			Versions: []policy.AppVersion{{ID: 0, AppID: 0, Name: "v", CPUUsage: 1}}, MaxHosts: 3, MaxUsers: 2, MaxTeams: 1}}
	if edit != nil {
		edit(&h)
	}
	j, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	return headerPrefix + string(j) + "\nresult_id,workunit_id,app_id,app_version_id,host_id,user_id,team_id,sent_time,received_time,outcome,validate_state,elapsed_time,flops_estimate,rsc_fpops_est\n" +
		strings.Join(rows, "\n") + "\n"
}

const okRow = "1,1,0,0,0,0,0,100,200,success,valid,50,1e9,1e13"

// TestReplayLimits: inputs that panicked, ran out of memory or were
// silently accepted (an edited trace header, IDs outside the trace's
// world, IDs that wrap or collide, times spanning millennia) are refused
// with the line, field and value at fault.
func TestReplayLimits(t *testing.T) {
	row := func(fields ...string) string {
		f := strings.Split(okRow, ",")
		for i := 0; i+1 < len(fields); i += 2 {
			names := strings.Split("result_id,workunit_id,app_id,app_version_id,host_id,user_id,team_id,sent_time,received_time,outcome,validate_state,elapsed_time,flops_estimate,rsc_fpops_est", ",")
			for k, n := range names {
				if n == fields[i] {
					f[k] = fields[i+1]
				}
			}
		}
		return strings.Join(f, ",")
	}
	for _, c := range []struct {
		name string
		text string
		want string
	}{
		{"no apps", traceText(t, func(h *Header) { h.World.Apps = nil }), "x.csv:1: trace header world.Apps: \"[]\": a world has at least one app"},
		{"no versions", traceText(t, func(h *Header) { h.World.Versions = nil }), "world.Versions: \"[]\""},
		{"a version of app 9", traceText(t, func(h *Header) { h.World.Versions[0].AppID = 9 }), "world.Versions[0].AppID: \"9\": the world has 1 app(s)"},
		{"resource 99", traceText(t, func(h *Header) { h.World.Versions[0].Resource = 99 }), "world.Versions[0].Resource: \"99\""},
		{"MaxHosts 0", traceText(t, func(h *Header) { h.World.MaxHosts = 0 }), "world.MaxHosts: \"0\""},
		{"MaxHosts -5", traceText(t, func(h *Header) { h.World.MaxHosts = -5 }), "world.MaxHosts: \"-5\""},
		{"MaxHosts 1e15", traceText(t, func(h *Header) { h.World.MaxHosts = 1e15 }), "world.MaxHosts: \"1000000000000000\""},
		{"MaxUsers 0", traceText(t, func(h *Header) { h.World.MaxUsers = 0 }), "world.MaxUsers: \"0\""},
		{"feeder period 0", traceText(t, func(h *Header) { h.FeederPeriod = 0 }), "trace header feeder_period: \"0\": want 1 to 86400 seconds"},
		{"feeder period -600", traceText(t, func(h *Header) { h.FeederPeriod = -600 }), "feeder_period: \"-600\""},
		{"feeder period 0.001", traceText(t, func(h *Header) { h.FeederPeriod = 0.001 }), "feeder_period: \"0.001\""},
		{"end 1e308", traceText(t, func(h *Header) { h.End = 1e308 }), "trace header end: \"1e+308\""},
		{"end -1", traceText(t, func(h *Header) { h.End = -1 }), "trace header end: \"-1\""},
		{"a second header", strings.Replace(traceText(t, nil, okRow), "\nresult_id", "\n"+strings.SplitN(traceText(t, func(h *Header) { h.FeederPeriod = 1 }), "\n", 2)[0]+"\nresult_id", 1),
			"x.csv:2: trace header: \"\": a second trace header"},
		{"host 9999", traceText(t, nil, row("host_id", "9999")), "x.csv:3: host_id: \"9999\": outside the trace's world (want 0 to 2)"},
		{"host -1", traceText(t, nil, row("host_id", "-1")), "host_id: \"-1\": outside"},
		{"user 100000", traceText(t, nil, row("user_id", "100000")), "user_id: \"100000\": outside"},
		{"version outside", traceText(t, nil, row("app_version_id", "3")), "app_version_id: \"3\": outside"},
		{"received 1e12", traceText(t, nil, row("received_time", "1e12")), "received_time: \"1e+12\""},
		{"received 1e308", traceText(t, nil, row("received_time", "1e308")), "received_time: \"1e+308\""},
		{"result id 1.5", traceText(t, nil, row("result_id", "1.5")), "x.csv:3:1: result_id: \"1.5\": want a whole number"},
		{"workunit id 1e19", traceText(t, nil, row("workunit_id", "1e19")), "workunit_id: \"1e19\": want a whole number"},
		{"result id 2^63", traceText(t, nil, row("result_id", "9223372036854775808")), "result_id: \"9223372036854775808\": want a whole number"},
		{"a result twice", traceText(t, nil, okRow, okRow), "x.csv:4: result_id: \"1\": also on line 3"},
		{"p_ncpus 1e20", "result_id,workunit_id,p_ncpus\n1,1,1e20\n", "p_ncpus: \"1e20\": want a whole number"},
		{"times spanning 30,000 years", "result_id,workunit_id,sent_time,received_time\n1,1,1,2\n2,2,3,1e12\n", "x.csv:3: received_time: \"1e+12\": 3.17e+04 years after the earliest time (line 2, sent_time 1)"},
	} {
		_, err := Read("x.csv", strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
	// A line longer than the line limit (a file without line ends) is
	// refused before it fills memory, whatever the form.
	maxLine := inputlimit.Default.Line
	for _, text := range []string{strings.Repeat("x", 3*maxLine), "result_id,workunit_id\n1," + strings.Repeat("2", 2*maxLine),
		"1 2 3 4 5 6 7 8 9 " + strings.Repeat("1", 2*maxLine)} {
		if _, err := Read("x.csv", strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), "longer than 1MiB") || strings.Count(err.Error(), "x.csv") != 1 {
			t.Errorf("a %d-byte line: %v", len(text), err)
		}
	}
	// A header wider than the columns limit is refused before its names
	// are read.
	if _, err := Read("x.csv", strings.NewReader(strings.Repeat("a,", 2000)+"b\n1\n")); err == nil || !strings.Contains(err.Error(), "--limit columns=2001") {
		t.Errorf("a 2001-column header: %v", err)
	}
	// The trace itself reads.
	if _, err := Read("x.csv", strings.NewReader(traceText(t, nil, okRow))); err != nil {
		t.Errorf("a well-formed trace: %v", err)
	}
}

// TestGzipInput: a compressed input reads as its text does, an error in
// it names its line as in the text, and a truncated or corrupt one is
// refused as such, with no rows taken from it.
func TestGzipInput(t *testing.T) {
	zip := func(s string) []byte {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write([]byte(s))
		z.Close()
		return b.Bytes()
	}
	good := traceText(t, nil, okRow)
	in, err := Read("x.csv.gz", bytes.NewReader(zip(good)))
	if err != nil || len(in.Rows) != 1 {
		t.Fatalf("compressed trace: %d rows, %v", len(in.Rows), err)
	}
	bad := traceText(t, nil, okRow, strings.Replace(okRow, "1,1,", "2,x,", 1))
	_, errText := Read("x.csv.gz", strings.NewReader(bad))
	_, errZip := Read("x.csv.gz", bytes.NewReader(zip(bad)))
	if errText == nil || errZip == nil || errText.Error() != errZip.Error() {
		t.Errorf("a bad row: compressed %v, text %v; want the same error", errZip, errText)
	}
	z := zip(strings.Repeat(good, 50))
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"truncated", z[:len(z)/2]},
		{"corrupt", append(append([]byte{}, z[:20]...), bytes.Repeat([]byte{0xff}, 200)...)},
		{"magic only", []byte{0x1f, 0x8b}},
	} {
		_, err := Read("x.csv.gz", bytes.NewReader(c.data))
		if err == nil || !strings.Contains(err.Error(), "gzip") || !strings.Contains(err.Error(), "x.csv.gz") {
			t.Errorf("%s: %v, want an error naming the file and gzip", c.name, err)
		}
	}
}

// TestReplayValues: values no BOINC database or client report can hold
// are refused with the line, column, field and value: times a job took
// beyond the 20 years a replay covers, negative CPU time, credit or FLOP
// counts, a result received before it was sent, a credit column named
// twice. Absurd but possible values (a benchmark of 1e308, a negative
// elapsed time a client reported) are modelled, not refused.
func TestReplayValues(t *testing.T) {
	const head = "result_id,workunit_id,app_id,app_version_id,host_id,user_id,team_id,sent_time,received_time,outcome,validate_state,elapsed_time,cpu_time,flops_estimate,rsc_fpops_est,granted_credit,p_fpops,counted_flops\n"
	const ok = "1,1,0,0,1,1,0,100,2000,success,valid,500,500,1e9,1e13,10,1e9,1e13"
	set := func(field, value string) string {
		names := strings.Split(strings.TrimSpace(head), ",")
		f := strings.Split(ok, ",")
		for i, n := range names {
			if n == field {
				f[i] = value
			}
		}
		return head + strings.Join(f, ",") + "\n"
	}
	for _, c := range []struct {
		name, text, want string
	}{
		{"elapsed 1e308", set("elapsed_time", "1e308"), `x.csv:2:38: elapsed_time: "1e308": want -630720000 to 630720000 seconds`},
		{"cpu time 1e308", set("cpu_time", "1e308"), `cpu_time: "1e308": want 0 to 630720000 seconds`},
		{"negative cpu time", set("cpu_time", "-3"), `cpu_time: "-3": want 0 to 630720000 seconds`},
		{"negative granted credit", set("granted_credit", "-5"), `granted_credit: "-5": want a number of at least 0`},
		{"negative counted FLOPs", set("counted_flops", "-1e13"), `counted_flops: "-1e13": want a number of at least 0`},
		{"negative estimate", set("rsc_fpops_est", "-1"), `rsc_fpops_est: "-1": want a number of at least 0`},
		{"received before sent", set("sent_time", "3000"), `x.csv:2: received_time: "2000": before the result's sent_time, 3000`},
		{"a credit column twice", strings.Replace(head, "counted_flops", "credit.v1peak,credit.v1peak", 1) + strings.Replace(ok, ",1e13\n", "", 1) + ",1,2\n", `header: "credit.v1peak": column named twice`},
	} {
		_, err := Read("x.csv", strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	negCredit := strings.Replace(head, "counted_flops", "credit.v1peak", 1) + strings.TrimSuffix(ok, "1e13") + "-2\n"
	if _, err := Read("x.csv", strings.NewReader(negCredit)); err == nil || !strings.Contains(err.Error(), `credit.v1peak: "-2": want a number of at least 0`) {
		t.Errorf("a negative credit.v1peak: %v", err)
	}
	for _, c := range []struct{ name, text string }{
		{"a benchmark of 1e308", set("p_fpops", "1e308")},
		{"a negative benchmark (a failed one)", set("p_fpops", "-1")},
		{"a negative elapsed time a client reported", set("elapsed_time", "-3")},
		{"a count of 1e304 (a one-time claim)", set("counted_flops", "1e304")},
	} {
		if _, err := Read("x.csv", strings.NewReader(c.text)); err != nil {
			t.Errorf("%s refused: %v", c.name, err)
		}
	}
}
