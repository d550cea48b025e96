package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/policy"
)

// FuzzRead: whatever bytes a replay input holds (CSV, TSV,
// credit_test_data, a trace with its header), reading never panics and
// either fails with an error naming the file or gives rows that a
// replay runs through a policy without panicking.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil && len(b) < 1<<16 {
			f.Add(b)
		}
	}
	f.Add([]byte("result_id,workunit_id\n\"4,5\n"))
	f.Add([]byte(headerPrefix + `{"validator_period":60,"feeder_period":600,"end":864000,"world":{"Apps":[{"ID":0}],"Versions":[{"ID":0,"AppID":0}],"MaxHosts":2,"MaxUsers":1}}` +
		"\nresult_id,workunit_id,app_id,app_version_id,host_id,user_id,team_id,sent_time,received_time,outcome,validate_state,elapsed_time,flops_estimate,rsc_fpops_est\n1,1,0,0,0,0,0,100,200,success,valid,50,1e9,1e13\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Read("fuzz.csv", strings.NewReader(string(data)))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if len(in.Rows) > 2000 {
			return // keep each input quick
		}
		k, opts, err := policy.Resolve(policy.Spec{Name: "credit-from-runtime"})
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := Supported(k, opts, in); !ok {
			return
		}
		if _, err := Run(in, []string{"credit-from-runtime"}, []policy.Spec{{Name: "credit-from-runtime"}}); err != nil && !strings.HasPrefix(err.Error(), "fuzz.csv") {
			t.Fatalf("replay error does not name the file: %v", err)
		}
	})
}
