package sweep

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkSweep runs a sweep of 6 points x 2 replications with 1 and 2
// cores: the ratio of the two times is the speed-up of -j 2 (issue 6's
// target: at least 1.8 on 2 cores).
//
//	go test -run '^$' -bench Sweep -benchtime 3x ./internal/sweep
func BenchmarkSweep(b *testing.B) {
	dir := b.TempDir()
	f := filepath.Join(dir, "sweep.yaml")
	writeFile(b, f, `
name: bench
base: baseline
set: [hosts.initial=150, hosts.arrivals_per_day=0, duration=12d, warmup=3d, "projects[0].apps[0].delay_bound=2d"]
replications: 2
parameters:
  - path: hosts.agents
    values: [[], [{kind: benchmark_inflation, share: 0.1, k: 3}], [{kind: fake_results, share: 0.1}]]
  - path: projects[0].apps[0].min_quorum
    values: [1, 2]
`)
	sw, err := Load(f)
	if err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("j%d", jobs), func(b *testing.B) {
			var res int64
			for i := 0; i < b.N; i++ {
				oc, err := Run(sw, Options{Out: filepath.Join(dir, fmt.Sprintf("out-%d", jobs)), Jobs: jobs, Force: true})
				if err != nil {
					b.Fatal(err)
				}
				res += oc.Results
			}
			b.ReportMetric(float64(res)/b.Elapsed().Seconds(), "results/s")
			b.ReportMetric(float64(len(sw.Points)*b.N)/b.Elapsed().Seconds(), "points/s")
		})
	}
}
