package cli

import (
	"io"
	"strings"
	"testing"
)

// readProgress reports the share of a file read, up to 1 at its end, and
// passes the bytes through unchanged.
func TestReadProgress(t *testing.T) {
	text := strings.Repeat("result_id,workunit_id\n", 1000)
	var shares []float64
	r := &readProgress{r: io.LimitReader(strings.NewReader(text), int64(len(text))), size: int64(len(text)),
		show: func(x float64) { shares = append(shares, x) }}
	b, err := io.ReadAll(r)
	if err != nil || string(b) != text {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	if len(shares) < 2 || shares[len(shares)-1] != 1 {
		t.Fatalf("shares %v, want several ending at 1", shares)
	}
	for i := 1; i < len(shares); i++ {
		if shares[i] < shares[i-1] {
			t.Errorf("share went back: %v", shares)
		}
	}
}
