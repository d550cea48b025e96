package v2actual

import (
	"math"

	"github.com/creditsim/creditsim/policy"
)

func init() {
	policy.Register(&policy.Kind{
		UseWhen:  "apps count their FLOPs exactly and max_granted_credit caps claims",
		Name:     "v2actual",
		Needs:    []string{"counted_flops", "cpu_time", "p_fpops", "p_iops"},
		Doc:      "second credit system: FLOPs counted by the app x a project factor (the CreditNew design page, versions 2 and 29)",
		Standard: true,
		Requires: func(policy.Options) string { return "apps that count their FLOPs" },
		Options:  policy.Docs((&config{}).decls()),
		New:      New,
	})
}

// Policy is a configured second-system instance.
type Policy struct {
	policy.Base
	scale       float64
	factor      float64 // counting apps; auto: running during calibration
	cpuFactor   float64 // non-counting apps
	autoFactor  bool
	autoCPU     bool
	calibration float64 // seconds
	gpuRule     string
	gpuCredit   float64
	whetstone   bool
	rule        string
	max         float64 // max_granted_credit; 0 is no cap

	world  *policy.World
	start  float64 // time of the first validation; -1 before
	frozen bool
	// Calibration sums: the first system's claims and the raw counted
	// claims of counting apps; CPU seconds and credit of counting apps;
	// CPU seconds and benchmark claims of non-counting CPU apps.
	v1Sum, rawSum        float64
	countCPU             float64
	benchCPU, benchClaim float64
	claims               []float64
}

// config is the instance's options, each declared once in decls.
type config struct {
	scale, calibration, gpuCredit float64
	max                           float64
	factor, cpuFactor             string
	gpu, benchmark, rule          string
}

func autoOrNumber(name string) func(string) error {
	return func(s string) error {
		if s == "auto" {
			return nil
		}
		_, _, err := autoOrFloat(name, s)
		return err
	}
}

func (c *config) decls() []policy.Decl {
	return []policy.Decl{
		policy.Float(&c.scale, "scale", policy.ScaleClassic, policy.Positive, "Cobblestones per GFLOPS-day (the first system's)"),
		policy.Text(&c.factor, "factor", "auto", "counting apps' project factor: a number, or auto (credit per job equal to the first system's over the calibration)", autoOrNumber("factor")),
		policy.Text(&c.cpuFactor, "cpu_factor", "auto", "non-counting apps' factor on benchmark x CPU time: a number, or auto (the counting apps' credit per CPU second)", autoOrNumber("cpu_factor")),
		policy.Float(&c.calibration, "calibration", 7, policy.Positive, "days of validations, from the first, over which auto factors are measured; frozen after"),
		policy.Choice(&c.gpu, "gpu", "cpu_time", "GPU apps that cannot count: cpu_time (benchmark x CPU time x cpu_factor), peak_elapsed (peak FLOPS x elapsed), fixed (gpu_credit per job)", "cpu_time", "peak_elapsed", "fixed"),
		policy.Float(&c.gpuCredit, "gpu_credit", 100, policy.Positive, "credit per job for gpu: fixed"),
		policy.Choice(&c.benchmark, "benchmark", "mean", "mean (of Whetstone and Dhrystone) | whetstone, for benchmark claims", "mean", "whetstone"),
		policy.Choice(&c.rule, "replicas", "boinc-pre2010", "boinc-pre2010 | min | mean (as v1peak)", policy.ReplicaRules...),
		policy.Float(&c.max, "max_granted_credit", 0, policy.NonNegative, "the validator's cap on a workunit's credit; 0 is no cap"),
	}
}

// New returns an instance configured by opts.
func New(opts policy.Options) (policy.Policy, error) {
	var c config
	if err := policy.ParseOptions(opts, c.decls()); err != nil {
		return nil, err
	}
	p := &Policy{scale: c.scale, calibration: c.calibration * policy.SecondsPerDay, gpuRule: c.gpu, gpuCredit: c.gpuCredit,
		whetstone: c.benchmark == "whetstone", rule: c.rule, max: c.max}
	p.factor, p.autoFactor, _ = autoOrFloat("factor", c.factor)
	p.cpuFactor, p.autoCPU, _ = autoOrFloat("cpu_factor", c.cpuFactor)
	return p, nil
}

// autoOrFloat reads "auto" (factor 1 for now, measured later) or a
// number above 0.
func autoOrFloat(name, s string) (float64, bool, error) {
	if s == "auto" {
		return 1, true, nil
	}
	f, err := policy.Options{name: s}.Float(name, 1, true)
	return f, false, err
}

// Init resets the calibration for a new replication.
func (p *Policy) Init(w *policy.World) {
	p.world = w
	p.start, p.frozen = -1, false
	p.v1Sum, p.rawSum, p.countCPU, p.benchCPU, p.benchClaim = 0, 0, 0, 0, 0
	if p.autoFactor {
		p.factor = 1
	}
	if p.autoCPU {
		p.cpuFactor = 1
	}
}

// Scale returns the instance's Cobblestones per GFLOPS-day.
func (p *Policy) Scale() float64 { return p.scale }

// Factors returns the current counting and non-counting factors.
func (p *Policy) Factors() (counting, cpu float64) { return p.factor, p.cpuFactor }

// Claim is result r's claimed credit with the current factors.
func (p *Policy) Claim(r *policy.Result) float64 {
	v := &p.world.Versions[r.VersionID]
	switch {
	case v.CountsFlops:
		return policy.Finite(policy.FlopsToCredit(r.CountedFlops, p.scale) * p.factor)
	case v.Resource.IsGPU() && p.gpuRule == "peak_elapsed":
		cpu, gpu := policy.ReportedPeak(r, v)
		peak := cpu + gpu
		return policy.Finite(policy.FlopsToCredit(peak*r.ElapsedTime, p.scale))
	case v.Resource.IsGPU() && p.gpuRule == "fixed":
		return p.gpuCredit
	}
	return policy.Finite(policy.BenchmarkClaim(r, p.whetstone, p.scale) * p.cpuFactor)
}

// Validated combines the valid replicas' claims; during the calibration
// it first folds them into the auto factors.
func (p *Policy) Validated(val *policy.Validation) float64 {
	if p.start < 0 {
		p.start = val.Time
	}
	if !p.frozen && val.Time > p.start+p.calibration {
		p.frozen = true
	}
	if !p.frozen && !val.Late {
		p.calibrate(val)
	}
	p.claims = p.claims[:0]
	for _, r := range val.Valid {
		p.claims = append(p.claims, p.Claim(r))
	}
	return policy.CapGranted(policy.CombineReplicas(p.rule, p.claims), p.max)
}

// calibrate adds a workunit's valid results to the calibration sums and
// updates the auto factors. The counting factor makes the mean credit per
// job equal the first system's: both sides are granted credit, the
// replicas' claims combined by the same rule, the first system's at its
// historic scale of 100 with the mean benchmark. The CPU factor makes
// non-counting CPU apps' credit per CPU second equal the counting apps'.
func (p *Policy) calibrate(val *policy.Validation) {
	p.claims = p.claims[:0]
	counting := 0
	for _, r := range val.Valid {
		v := &p.world.Versions[r.VersionID]
		switch {
		case v.CountsFlops:
			counting++
			p.countCPU += r.CPUTime
		case !v.Resource.IsGPU():
			p.benchCPU += r.CPUTime
			p.benchClaim += policy.BenchmarkClaim(r, p.whetstone, p.scale)
		}
	}
	if counting > 0 && counting == len(val.Valid) {
		n := float64(counting)
		for _, r := range val.Valid {
			p.claims = append(p.claims, policy.BenchmarkClaim(r, false, policy.ScaleClassic))
		}
		p.v1Sum += n * policy.CombineReplicas(p.rule, p.claims)
		p.claims = p.claims[:0]
		for _, r := range val.Valid {
			p.claims = append(p.claims, policy.Finite(policy.FlopsToCredit(r.CountedFlops, p.scale)))
		}
		p.rawSum += n * policy.CombineReplicas(p.rule, p.claims)
	}
	if p.autoFactor && p.rawSum > 0 && p.v1Sum > 0 {
		p.factor = p.v1Sum / p.rawSum
	}
	if p.autoCPU && p.countCPU > 0 && p.benchCPU > 0 && p.benchClaim > 0 {
		perCPUSecond := p.rawSum * p.factor / p.countCPU
		f := perCPUSecond / (p.benchClaim / p.benchCPU)
		if f > 0 && !math.IsInf(f, 0) {
			p.cpuFactor = f
		}
	}
}

// Gauges exposes the two factors for the time series.
func (p *Policy) Gauges(dst []policy.Gauge) []policy.Gauge {
	return append(dst, policy.Gauge{Name: "factor", Value: p.factor}, policy.Gauge{Name: "cpu_factor", Value: p.cpuFactor})
}
