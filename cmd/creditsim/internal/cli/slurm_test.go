package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSlurmArraySweep runs docs/sweeps.md's Slurm recipe on a real one-node Slurm:
// the example sweep as a job array (sbatch --array, one shard per task,
// shards found from SLURM_ARRAY_TASK_ID), then the merge job it gives,
// and checks that the merged sweep is the unsharded one, byte for byte;
// then docs/attack.md's attack recipe the same way (slurmAttack).
// It starts munged, slurmctld and slurmd in a temporary folder (Debian's
// slurm-wlm, which .ci/run installs) and stops them by process id. It is
// skipped, saying why, only where Slurm is not installed or cannot run.
func TestSlurmArraySweep(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Slurm and runs a sweep three ways: full suite only")
	}
	t.Parallel() // mostly waiting for Slurm: beside the scripts
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("a one-node Slurm with SlurmUser=root needs Linux and root")
	}
	tools := map[string]string{}
	for _, name := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"} {
		p, err := exec.LookPath(name)
		if err != nil {
			if _, e := os.Stat("/usr/sbin/" + name); e != nil {
				t.Skipf("no %s: Debian's slurm-wlm installs Slurm (.ci/run does)", name)
			}
			p = "/usr/sbin/" + name
		}
		tools[name] = p
	}
	repo, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// A short folder: munge's socket path must fit in a sockaddr_un.
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })

	// The binary users run, built from this tree.
	bin := filepath.Join(dir, "bin")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", filepath.Join(bin, "creditsim"), filepath.Join(repo, "cmd", "creditsim")).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	conf := startSlurm(t, dir, tools)
	env := append(os.Environ(), "SLURM_CONF="+conf, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	// docs/sweeps.md's sbatch script and merge command, pointed at the example
	// sweep and a folder of this test; the array and the resources fit a
	// 2-CPU node (the script asks for 8 CPUs and 8 GB per task); without
	// -q each task says which shard it ran.
	// The example sweep at a third of its hosts: the test checks the
	// plumbing (shards from the array index, the merge), not the figures,
	// and runs the sweep twice.
	example, err := os.ReadFile(filepath.Join(repo, "scenarios", "sweeps", "gpu-inflators.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(example, []byte("hosts.initial=300")) {
		t.Fatal("the example sweep no longer sets hosts.initial=300; update this test")
	}
	sweepFile := filepath.Join(dir, "gpu-inflators.yaml")
	if err := os.WriteFile(sweepFile, bytes.Replace(example, []byte("hosts.initial=300"), []byte("hosts.initial=60\n  - hosts.arrivals_per_day=1"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sweep")
	script, merge := readmeSlurm(t, filepath.Join(repo, "docs", "sweeps.md"))
	for _, r := range [][2]string{
		{"--array=0-7", "--array=0-2"}, {"--cpus-per-task=8", "--cpus-per-task=1"}, {"--mem=8G", "--mem=400M"},
		{" -q -j", " -j"}, {"my-sweep.yaml", sweepFile}, {"/shared/sweeps/my-sweep", out},
	} {
		if !strings.Contains(script+merge, r[0]) {
			t.Fatalf("docs/sweeps.md's Slurm recipe has no %q; update this test with it", r[0])
		}
		script = strings.ReplaceAll(script, r[0], r[1])
		merge = strings.ReplaceAll(merge, r[0], r[1])
	}
	if err := os.WriteFile(filepath.Join(dir, "sweep.sbatch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "submit.sh"), []byte("set -e\n"+merge+"\necho \"$jid\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := exec.Command("bash", "submit.sh")
	sub.Dir, sub.Env = dir, env
	jid, err := sub.CombinedOutput()
	if err != nil {
		t.Fatalf("submitting the docs' jobs: %v\n%s", err, jid)
	}
	waitQueue(t, tools["squeue"], env, dir)
	logs := jobLogs(dir)
	if n := strings.Count(logs, "==> slurm-"); n != 4 {
		t.Fatalf("%d job logs, want 3 array tasks and a merge:\n%s", n, logs)
	}
	for i := 1; i <= 3; i++ {
		if !strings.Contains(logs, fmt.Sprintf("shard %d/3 done", i)) {
			t.Errorf("no array task ran shard %d of 3 (from SLURM_ARRAY_TASK_ID):\n%s", i, logs)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "sweep.csv")); err != nil {
		t.Fatalf("the merge job wrote no sweep.csv: %v\n%s", err, logs)
	}

	// The same sweep unsharded, on this machine.
	ref := filepath.Join(dir, "ref")
	cmd := exec.Command(filepath.Join(bin, "creditsim"), "sweep", sweepFile, "-o", ref, "-q")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("unsharded sweep: %v\n%s", err, b)
	}
	want, got := fileTree(t, ref), fileTree(t, out)
	var names []string
	for k := range want {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !bytes.Equal(want[k], got[k]) {
			t.Errorf("%s differs between the Slurm array's merged sweep and the unsharded one", k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("the Slurm array's sweep has an extra file %s", k)
		}
	}
	if len(want) < 10 {
		t.Errorf("the unsharded sweep wrote only %d files", len(want))
	}
	slurmAttack(t, repo, filepath.Join(dir, "attack"), bin, env, tools)
}

// slurmAttack runs docs/attack.md's attack recipe on the running Slurm: a tiny
// attack of cheaters as an array of two shards, then the join, and checks
// that the join wrote what the same attack writes unsharded.
func slurmAttack(t *testing.T, repo, dir, bin string, env []string, tools map[string]string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	creditsim := filepath.Join(bin, "creditsim")
	tiny := filepath.Join(dir, "tiny.yaml")
	b, err := exec.Command(creditsim, "validate", "cheaters", "--set", "hosts.initial=100", "--set", "duration=14d",
		"--set", "warmup=3d", "--set", "hosts.arrivals_per_day=0", "--set", "policies=[v1peak, v3pfc-boinc]",
		"--set", "hosts.agents=[{kind: benchmark_inflation, share: 0.1, k: 3}, {kind: fake_results, share: 0.1, work_fraction: 0.05}]").Output()
	if err != nil {
		t.Fatalf("creditsim validate: %v", err)
	}
	if err := os.WriteFile(tiny, b, 0o644); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(repo, "docs", "attack.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)On Slurm \\(`attack` recipe\\).*?```sh\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("docs/attack.md has no attack recipe for Slurm (a ```sh block after 'On Slurm (`attack` recipe)')")
	}
	submit := string(m[1])
	for _, r := range [][2]string{
		{"--array=1-4", "--array=1-2"}, {"--cpus-per-task=8", "--cpus-per-task=1"},
		{"creditsim attack cheaters", "creditsim attack " + tiny + " --budget 16"}, {"/shared/attack", dir},
	} {
		if !strings.Contains(submit, r[0]) {
			t.Fatalf("docs/attack.md's attack recipe has no %q; update this test with it", r[0])
		}
		submit = strings.ReplaceAll(submit, r[0], r[1])
	}
	sub := exec.Command("bash", "-c", "set -e\n"+submit)
	sub.Dir, sub.Env = dir, env
	if out, err := sub.CombinedOutput(); err != nil {
		t.Fatalf("submitting the docs' attack jobs: %v\n%s", err, out)
	}
	waitQueue(t, tools["squeue"], env, dir)
	logs := jobLogs(dir)
	for i := 1; i <= 2; i++ {
		if !strings.Contains(logs, fmt.Sprintf("shard %d/2 done", i)) {
			t.Errorf("no array task ran attack shard %d of 2:\n%s", i, logs)
		}
	}
	ref := filepath.Join(dir, "ref")
	if out, err := exec.Command(creditsim, "attack", tiny, "--budget", "16", "-q", "-o", ref).CombinedOutput(); err != nil {
		t.Fatalf("unsharded attack: %v\n%s", err, out)
	}
	want, got := fileTree(t, ref), fileTree(t, filepath.Join(dir, "cheaters-out"))
	if want["attack-v1peak.yaml"] == nil || want["attack-v3pfc-boinc.png"] == nil {
		t.Fatalf("the unsharded attack wrote no worst case for each policy (%d files)", len(want))
	}
	for k, w := range want {
		if !bytes.Equal(w, got[k]) {
			t.Errorf("%s differs between the Slurm array's joined attack and the unsharded one\n%s", k, logs)
		}
	}
}

// waitQueue waits until Slurm's queue is empty.
func waitQueue(t *testing.T, squeue string, env []string, dir string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		q := exec.Command(squeue, "-h", "-o", "%i %T %r")
		q.Env = env
		b, err := q.CombinedOutput()
		if err != nil {
			t.Fatalf("squeue: %v\n%s", err, b)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			return
		}
		if strings.Contains(string(b), "DependencyNeverSatisfied") || time.Now().After(deadline) {
			t.Fatalf("jobs stuck:\n%s\n%s", b, jobLogs(dir))
		}
		time.Sleep(time.Second)
	}
}

// startSlurm starts munged, slurmctld and slurmd in the foreground under
// dir, stopped by process id when the test ends, and waits until the
// node takes jobs. It returns the slurm.conf path.
func startSlurm(t *testing.T, dir string, tools map[string]string) string {
	t.Helper()
	for _, d := range []string{"munge", "state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	key := make([]byte, 1024)
	for i := range key {
		key[i] = byte(i*131 + 7) // a test key: munge needs one, not a secret
	}
	if err := os.WriteFile(filepath.Join(dir, "munge", "munge.key"), key, 0o400); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "munge", "munge.sock")
	host, err := exec.Command("hostname", "-s").Output()
	if err != nil {
		t.Skipf("hostname -s: %v", err)
	}
	h := strings.TrimSpace(string(host))
	conf := filepath.Join(dir, "slurm.conf")
	text := fmt.Sprintf(`ClusterName=creditsim
SlurmctldHost=%[1]s
SlurmUser=root
SlurmdUser=root
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
AuthType=auth/munge
AuthInfo=socket=%[5]s
StateSaveLocation=%[2]s/state
SlurmdSpoolDir=%[2]s/spool
SlurmctldPidFile=%[2]s/slurmctld.pid
SlurmdPidFile=%[2]s/slurmd.pid
SlurmctldLogFile=%[2]s/log/slurmctld.log
SlurmdLogFile=%[2]s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=%[1]s CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, h, dir, freePort(t), freePort(t), sock)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "SLURM_CONF="+conf)
	start := func(name string, args ...string) {
		cmd := exec.Command(tools[name], args...)
		cmd.Env = env
		log, err := os.Create(filepath.Join(dir, "log", name+".out"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Skipf("%s cannot start here: %v", name, err)
		}
		t.Cleanup(func() {
			// SIGTERM lets slurmctld stop its script helper too.
			cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
			}
			log.Close()
		})
	}
	start("munged", "--foreground", "--force", "--key-file="+filepath.Join(dir, "munge", "munge.key"), "--socket="+sock,
		"--log-file="+filepath.Join(dir, "log", "munged.log"), "--pid-file="+filepath.Join(dir, "munge", "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munge", "seed"))
	waitFor(t, 30*time.Second, func() bool { _, err := os.Stat(sock); return err == nil }, dir, "munge's socket")
	start("slurmctld", "-D", "-f", conf)
	start("slurmd", "-D", "-f", conf)
	waitFor(t, 60*time.Second, func() bool {
		cmd := exec.Command(tools["sinfo"], "-h", "-o", "%t")
		cmd.Env = env
		b, err := cmd.Output()
		return err == nil && strings.TrimSpace(string(b)) == "idle"
	}, dir, "the node to be idle")
	return conf
}

// waitFor polls ok until it holds or the time is up, then skips: a Slurm
// that cannot start here (no munge, a port in use) is the machine's
// limit, not a finding about creditsim.
func waitFor(t *testing.T, d time.Duration, ok func() bool, dir, what string) {
	t.Helper()
	for end := time.Now().Add(d); !ok(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			t.Skipf("Slurm did not start here: waited %v for %s\n%s", d, what, jobLogs(filepath.Join(dir, "log")))
		}
	}
}

// freePort returns a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// readmeSlurm returns docs/sweeps.md's sweep.sbatch script and its two submit
// commands (the array, then the merge that depends on it).
func readmeSlurm(t *testing.T, path string) (script, submit string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)Slurm \\(`sweep.sbatch`\\)[^\n]*\n\n```bash\n(.*?)```\n\n```sh\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/sweeps.md has no Slurm recipe (a ```bash sweep.sbatch block, then a ```sh block that submits it)")
	}
	return string(m[1]), string(m[2])
}

// jobLogs gathers the text files directly in dir (the jobs' slurm-*.out
// logs, or the daemons' logs) for a failure message.
func jobLogs(dir string) string {
	var b strings.Builder
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() || !(strings.HasPrefix(e.Name(), "slurm-") || strings.HasSuffix(e.Name(), ".log") || strings.HasSuffix(e.Name(), ".out")) {
			continue
		}
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fmt.Fprintf(&b, "==> %s <==\n%s\n", e.Name(), data)
	}
	return b.String()
}

// fileTree reads every file under dir (relative path -> bytes).
func fileTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
