package cli

import (
	"io"
	"testing"
)

// TestOutputKey: a folder's key names what it holds. Flags that only say
// where or how it is computed (cores, quiet, sharding and joining) do not
// enter it, so a sharded and joined attack writes the same marker as the
// unsharded one; flags that change the result do, in one order.
func TestOutputKey(t *testing.T) {
	key := func(args ...string) string {
		t.Helper()
		root := newRoot(args, io.Discard, io.Discard)
		cmd, rest, err := root.Find(args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return outputKey(cmd, cmd.Flags().Args())
	}
	for _, c := range []struct {
		name string
		a, b []string
		same bool
	}{
		{"joined attack is the unsharded one",
			[]string{"attack", "tiny.yaml", "--budget", "16", "-q", "-o", "ref"},
			[]string{"attack", "tiny.yaml", "--budget", "16", "--from", "shards", "-o", "joined"}, true},
		{"a shard is the same attack",
			[]string{"attack", "cheaters", "--shard", "2/4", "-o", "x"},
			[]string{"attack", "cheaters", "-j", "3"}, true},
		{"set order does not matter",
			[]string{"run", "baseline", "--set", "a=1", "--set", "b=2"},
			[]string{"run", "baseline", "--set", "b=2", "--set", "a=1"}, true},
		{"budget changes the result",
			[]string{"attack", "cheaters", "--budget", "16"},
			[]string{"attack", "cheaters", "--budget", "17"}, false},
		{"quick is another run",
			[]string{"run", "baseline", "--quick"},
			[]string{"run", "baseline"}, false},
	} {
		ka, kb := key(c.a...), key(c.b...)
		if (ka == kb) != c.same {
			t.Errorf("%s: keys %q and %q; want same=%v", c.name, ka, kb, c.same)
		}
	}
}
