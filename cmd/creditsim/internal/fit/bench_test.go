package fit

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/statsdump"
)

// BenchmarkFit100k reads and fits a statistics export of 100,000 hosts
// (written by statsdump.Write, gzip-compressed): what creditsim fit does
// with a large project's host.gz.
//
//	go test -run '^$' -bench Fit100k -benchtime 3x ./cmd/creditsim/internal/fit
func BenchmarkFit100k(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	hs := make([]statsdump.Host, 100000)
	for i := range hs {
		c := 1.7e9 + r.Float64()*600*86400
		hs[i] = statsdump.Host{ID: i + 1, UserID: 1 + r.IntN(60000), TotalCredit: 1 + r.Float64()*1e5, OSName: "Linux Ubuntu",
			CreateTime: c, RPCTime: min(c+r.ExpFloat64()*200*86400, 1.76e9), NCPUs: 1 << r.IntN(5),
			PFpops: 4e9 * (0.8 + 0.4*r.Float64()), PIops: 1e10 * (0.8 + 0.4*r.Float64())}
		if r.Float64() < 0.3 {
			hs[i].GPUs = []statsdump.GPU{{Vendor: "nvidia", Model: "GeForce RTX 3060", Count: 1}}
		}
	}
	var buf bytes.Buffer
	if err := statsdump.Write(&buf, hs); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "host.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		got, err := statsdump.Read(path)
		if err != nil {
			b.Fatal(err)
		}
		f, err := FitHosts(got, Window{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Scenario("bench", path); err != nil {
			b.Fatal(err)
		}
	}
}
