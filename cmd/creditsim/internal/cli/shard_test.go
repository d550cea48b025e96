package cli

import (
	"strings"
	"testing"
)

// TestShardOf: --shard wins; otherwise Slurm's array variables (task id
// relative to the array's minimum) or Kubernetes' completion index with
// the count from --shard-count or CREDITSIM_SHARD_COUNT (DESIGN 10).
func TestShardOf(t *testing.T) {
	for _, c := range []struct {
		name  string
		flag  string
		count int
		env   map[string]string
		i, n  int
		err   string
	}{
		{name: "none"},
		{name: "flag", flag: "2/5", i: 2, n: 5},
		{name: "flag wins", flag: "1/2", env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, i: 1, n: 2},
		{name: "slurm from 0", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"}, i: 1, n: 4},
		{name: "slurm from 1", env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, i: 4, n: 4},
		{name: "slurm offset", env: map[string]string{"SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "3"}, i: 3, n: 3},
		{name: "kubernetes flag count", count: 3, env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, i: 3, n: 3},
		{name: "kubernetes env count", env: map[string]string{"JOB_COMPLETION_INDEX": "0", "CREDITSIM_SHARD_COUNT": "2"}, i: 1, n: 2},
		{name: "kubernetes no count", env: map[string]string{"JOB_COMPLETION_INDEX": "0"}, err: "--shard-count"},
		{name: "kubernetes out of range", count: 2, env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, err: "shard 3 of 2"},
		{name: "bad flag", flag: "3", err: "want i/n"},
		{name: "flag out of range", flag: "0/4", err: "shard 0 of 4"},
		{name: "flag not a number", flag: "a/4", err: "not an integer"},
		{name: "slurm without count", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, err: "SLURM_ARRAY_TASK_COUNT"},
		{name: "count alone", count: 2, err: "--shard-count goes with"},
	} {
		i, n, err := shardOf(c.flag, c.count, func(k string) string { return c.env[k] })
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %d/%d, %v; want an error containing %q", c.name, i, n, err, c.err)
			}
			continue
		}
		if err != nil || i != c.i || n != c.n {
			t.Errorf("%s: %d/%d, %v; want %d/%d", c.name, i, n, err, c.i, c.n)
		}
	}
}
