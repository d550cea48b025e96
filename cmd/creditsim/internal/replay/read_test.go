package replay

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/policy"
	_ "github.com/creditsim/creditsim/policy/all"
)

func readFile(t *testing.T, name string) *Input {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := Read(name, f)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// credit_test_data: ten fields per line, valid results only, replayed in
// result-ID order with a workunit's replicas together.
func TestCreditTestData(t *testing.T) {
	in := readFile(t, "testdata/credit_test_data")
	if in.Form != CreditTest || len(in.Rows) != 5 {
		t.Fatalf("form %s, %d rows", in.Form, len(in.Rows))
	}
	r := in.Rows[3]
	if r.ResultID != 104 || r.WorkunitID != 12 || r.HostID != 9 || r.Claimed != 52 || r.VersionID != 4 ||
		r.ElapsedTime != 1000 || r.FlopsEstimate != 1e9 || r.CPUTime != 990 || r.RscFpopsEst != 1.44e13 || r.ValidateState != policy.Valid {
		t.Errorf("row 4 read as %+v", r)
	}
	var names []string
	var specs []policy.Spec
	for _, n := range []string{"credit-from-runtime", "v3pfc-boinc", "v1peak", "sciunited"} {
		k, opts, _ := policy.Resolve(policy.Spec{Name: n})
		ok, why := Supported(k, opts, in)
		if want := n == "credit-from-runtime" || n == "v3pfc-boinc"; ok != want {
			t.Errorf("%s supported %v (%s), want %v", n, ok, why, want)
		}
		if ok {
			names, specs = append(names, n), append(specs, policy.Spec{Name: n})
		}
	}
	o, err := Run(in, names, specs)
	if err != nil {
		t.Fatal(err)
	}
	// Runtime credit of workunit 12: the low average of its replicas'
	// claims, the failed benchmark's 1e9 replaced by 4.3e9.
	c := func(fe, el float64) float64 { return policy.FlopsToCredit(fe*el, 200) }
	want := policy.LowAverage([]float64{c(4e9, 3700), c(4.3e9, 1000)})
	for _, i := range []int{2, 3} {
		if got := o.Credit[i][0]; math.Abs(got-want) > 1e-12*want {
			t.Errorf("result %d: runtime credit %v, want %v", in.Rows[i].ResultID, got, want)
		}
	}
	// The workunits run in result-ID order at synthetic times.
	if !(in.Rows[0].SentTime < in.Rows[2].SentTime && in.Rows[2].SentTime < in.Rows[4].SentTime && in.Rows[0].SentTime == in.Rows[1].SentTime) {
		t.Errorf("times %v %v %v", in.Rows[0].SentTime, in.Rows[2].SentTime, in.Rows[4].SentTime)
	}
	outs, err := Write(in, o, map[string]string{"sciunited": "why"}, "creditsim test")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"replay-results.csv", "replay-versions.csv", "replay-hosts.csv", "replay-users.csv", "replay-apps.csv", "replay.json", "report.html"} {
		if len(outs[f]) == 0 {
			t.Errorf("no %s", f)
		}
	}
	if !strings.Contains(string(outs["replay.json"]), `"compared_with": "claimed_credit"`) {
		t.Error("credit_test_data has claims: the replay should compare with them")
	}
}

// The ATLAS task: runtime credit and CreditNew (no statistics yet) pay
// its elapsed time at the device's peak, about 33,600 credits for five
// CPU hours of a VM's work; per CPU hour that is more than 4 x per
// elapsed hour.
func TestATLASTask(t *testing.T) {
	in := readFile(t, "testdata/atlas.csv")
	names := []string{"credit-from-runtime", "v3pfc-boinc"}
	o, err := Run(in, names, []policy.Spec{{Name: names[0]}, {Name: names[1]}})
	if err != nil {
		t.Fatal(err)
	}
	want := policy.FlopsToCredit(49.56e9*293195, 200)
	for p, n := range names {
		if got := o.Credit[0][p]; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: %v, want %v", n, got, want)
		}
	}
	if math.Abs(want-33636) > 1 {
		t.Errorf("peak x elapsed credit %v, want about 33,636", want)
	}
	t.Logf("granted %v; runtime credit %.2f (%.0f per CPU hour, %.0f per elapsed hour)", in.Rows[0].Granted, want, want/(18096.0/3600), want/(293195.0/3600))
}

// Bad input names the file, line, column, field and text.
func TestBadInput(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"result_id,workunit_id,elapsed\n1,2,3\n", "x.csv:1:23: header: \"elapsed\": unknown column"},
		{"result_id,workunit_id,elapsed_time\n1,2,abc\n", "x.csv:2:5: elapsed_time: \"abc\": not a finite number"},
		{"result_id,workunit_id,outcome\n1,2,won\n", "x.csv:2:5: outcome: \"won\": want success"},
		{"result_id,elapsed_time\n1,2\n", "x.csv:1: header: \"\": a replay needs the column workunit_id"},
		{"result_id,workunit_id\n1,2,3\n", "x.csv:2: 3 fields, the header has 2"},
		{"result_id,workunit_id\n", "x.csv: no results"},
		{"1 2 3 4 5 6 7 8 9\n", "x.csv:1: want 10 whitespace-separated fields"},
		{"1 2 3 4 5 6 7 x 9 10\n", "x.csv:1:15: flops_estimate: \"x\": not a finite number"},
		{"1  2 3 4 5 6 7 8 9\t.inf\n", "x.csv:1:20: rsc_fpops_est: \".inf\": not a finite number"},
		{"", "x.csv: empty"},
		// A misspelt header is read as a header, not as numbers.
		{"resultid,workunit_id\n1,2\n", "x.csv:1:1: header: \"resultid\": unknown column"},
		{"resultid workunit_id\n1 2\n", "x.csv:1:1: header: \"resultid workunit_id\": unknown column"},
		// A record that starts with a quote error (these panicked in
		// FieldPos): named by line and column.
		{"result_id,workunit_id\n\"4,5\n", "x.csv:2:"},
		{"result_id,workunit_id\n\"1\"x,2\n", "x.csv:2:"},
		{"\"result_id\"x,workunit_id\n1,2\n", "x.csv:1:"},
		{"result_id\tworkunit_id\n\"1\"x\t1\n", "x.csv:2:"},
		{"result_id,workunit_id\n1,2\n\"1", "x.csv:3:"},
	} {
		_, err := Read("x.csv", strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// mysql --batch output: tab-separated, NULL for absent values, BOINC's
// numeric outcome and validate-state codes.
func TestTabSeparated(t *testing.T) {
	text := "result_id\tworkunit_id\toutcome\tvalidate_state\telapsed_time\tgranted_credit\n7\t3\t1\t1\t3600\tNULL\n8\t3\t4\t0\tNULL\t12.5\n"
	in, err := Read("q.tsv", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Rows) != 2 || in.Rows[0].ElapsedTime != 3600 || !math.IsNaN(in.Rows[0].Granted) || in.Rows[1].Granted != 12.5 ||
		in.Rows[1].Outcome != policy.NoReply || in.Rows[0].ValidateState != policy.Valid {
		t.Errorf("read %+v", in.Rows)
	}
}

// A spreadsheet's UTF-8 byte-order mark and CRLF line ends read as a
// plain file does, CSV and credit_test_data alike.
func TestSpreadsheetExport(t *testing.T) {
	for _, text := range []string{
		"\ufeffresult_id,workunit_id,granted_credit\r\n7,3,12.5\r\n",
		"\ufeff7 3 0 1 12.5 0 1000 1e9 990 1.44e13\r\n",
	} {
		in, err := Read("export.csv", strings.NewReader(text))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if r := in.Rows; len(r) != 1 || r[0].ResultID != 7 || r[0].Granted != 12.5 && r[0].Claimed != 12.5 {
			t.Errorf("%q: read %+v", text, in.Rows)
		}
	}
}

// Plan classes name GPUs as BOINC's do; words that merely contain the
// letters do not.
func TestResourceOf(t *testing.T) {
	for pc, want := range map[string]policy.Resource{"": policy.CPU, "cuda101": policy.NVIDIA, "opencl_nvidia_102": policy.NVIDIA,
		"ati14": policy.AMD, "opencl_amd": policy.AMD, "opencl_intel_gpu": policy.IntelGPU, "apple_metal": policy.AppleGPU,
		"vbox64_mt_mcore_atlas": policy.CPU, "mt": policy.CPU, "sse2": policy.CPU} {
		if got := ResourceOf(pc); got != want {
			t.Errorf("%q: %v, want %v", pc, got, want)
		}
	}
}

// Two ordinary tasks of the first system's era: replayed, the first
// system gives the credit their pages showed to the cent (the pages'
// benchmarks are rounded to 0.01 million ops/s); runtime credit pays the
// Whetstone speed alone x the time, at scale 200.
func TestFirstSystemTasks(t *testing.T) {
	in := readFile(t, "testdata/first_system_tasks.csv")
	names := []string{"v1peak", "credit-from-runtime"}
	for _, n := range append(names, "v3pfc-boinc", "credit-from-wu") {
		k, opts, _ := policy.Resolve(policy.Spec{Name: n})
		ok, why := Supported(k, opts, in)
		if want := n == "v1peak" || n == "credit-from-runtime"; ok != want {
			t.Errorf("%s runs: %v (%s), want %v: the pages give no rsc_fpops_est", n, ok, why, want)
		}
	}
	o, err := Run(in, names, []policy.Spec{{Name: names[0]}, {Name: names[1]}})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range in.Rows {
		if got := o.Credit[i][0]; math.Abs(got-r.Claimed) >= 0.005 {
			t.Errorf("result %d: the first system gives %v, the page showed %v", r.ResultID, got, r.Claimed)
		}
		want := policy.FlopsToCredit(1394.01e6*r.ElapsedTime, 200)
		if got := o.Credit[i][1]; math.Abs(got-want) > 1e-12*want {
			t.Errorf("result %d: runtime credit %v, want %v", r.ResultID, got, want)
		}
		t.Logf("result %d: page %.2f, first system %.2f, runtime credit %.2f", r.ResultID, r.Claimed, o.Credit[i][0], o.Credit[i][1])
	}
}

// A file of client reports is credited from the times BOINC's scheduler
// would have stored: a CUDA result reporting 0.244 s elapsed and 4.88 s
// of CPU time is paid for 4.88 s (a sequential version), a
// multi-threaded or anonymous one keeps its elapsed time, a negative
// elapsed time becomes 0, a zero one the CPU time, elapsed time is
// clamped to the turnaround in whole seconds and CPU time to elapsed x
// p_ncpus.
func TestClientReports(t *testing.T) {
	in := readFile(t, "testdata/client_reports.csv")
	names := []string{"credit-from-runtime"}
	o, err := Run(in, names, []policy.Spec{{Name: names[0]}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64][2]float64{1: {4.88, 4.88}, 2: {10, 40}, 3: {5, 9}, 4: {0, 0}, 5: {30, 30}, 6: {300, 200}, 7: {100, 200}, 8: {100, 90}}
	for i, r := range in.Rows {
		w := want[r.ResultID]
		if r.ElapsedTime != w[0] || r.CPUTime != w[1] {
			t.Errorf("result %d: stored %v s elapsed, %v s CPU; want %v, %v", r.ResultID, r.ElapsedTime, r.CPUTime, w[0], w[1])
		}
		if r.ValidateState != policy.Valid {
			continue
		}
		if want := policy.FlopsToCredit(w[0]*r.FlopsEstimate, 200); math.Abs(o.Credit[i][0]-want) > 1e-12*want {
			t.Errorf("result %d: credit %v, want %v", r.ResultID, o.Credit[i][0], want)
		}
	}
	if got := o.Credit[0][0]; math.Abs(got-13.56) > 0.005 {
		t.Errorf("the CUDA result: %v credits, want 13.56 (4.88 s at 1.2 TFLOPS, not the 0.68 of 0.244 s)", got)
	}
}
