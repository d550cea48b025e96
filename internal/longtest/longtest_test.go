package longtest

import (
	"testing"
)

func TestEnabled(t *testing.T) {
	for _, c := range []struct {
		env  string
		want bool
	}{{"1", !testing.Short()}, {"", false}, {"0", false}, {"yes", false}} {
		t.Setenv(Env, c.env)
		if got := Enabled(); got != c.want {
			t.Errorf("%s=%q: Enabled() = %v, want %v", Env, c.env, got, c.want)
		}
	}
}
