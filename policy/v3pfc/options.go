package v3pfc

import (
	"strconv"

	"github.com/creditsim/creditsim/policy"
)

// Config is a parsed set of options: one field per mechanism.
type Config struct {
	Scale float64 // Cobblestones per GFLOPS-day

	PeakSource  string // "sent" (flops_estimate fixed at send) | "reported" (usage x reported peaks)
	FailedBench string // "head" | "classic" | "none": substitution for 1e9 / missing benchmarks
	Sanity      string // "clamp_bound" | "wu_estimate" | "default_pfc" | "none"
	MaxGranted  float64

	Averaging        string // "boinc" | "design" | "est_weighted"
	VersionNorm      string // "groups" | "min" | "off"
	VersionSamples   float64
	GPUOnly          string  // "factor" | "central"
	GPUOnlyFactor    float64 // the server's 0.1
	MedianHosts      bool    // PFCmean(V) = median over hosts of PFCmean(H, V)
	Timing           string  // "batched" (validator flush + feeder tick) | "continuous"
	AVCache          string  // "validator" (cached pfc_scale, re-read on a write conflict) | "fresh"
	HostNorm         bool
	HostSamples      float64
	HostCap          float64 // 0 = none
	Anonymous        string  // "host_scaled" | "app_average"
	Replicas         string  // "pegged" | "mean_trusted" | "min"
	OneTime          string  // "none" | "cap" | "probation"
	OneTimeFactor    float64
	Cherry           string // "none" | "cons_valid" | "reset" | "probation"
	ProbationRearm   string // "once" | "every_send"
	ProbationCapsOne bool   // an error caps Scale(H) at 1 ("max the scale factor with 1")
}

type optSpec struct {
	doc     policy.OptionDoc
	choices []string // nil for numbers
}

var optSpecs = []optSpec{
	{policy.OptionDoc{Name: "scale", Default: "200", Doc: "Cobblestones per GFLOPS-day (server 200; design v29 writes 100)"}, nil},
	{policy.OptionDoc{Name: "peak", Default: "sent", Doc: "sent: PFC = elapsed x flops_estimate fixed at send, CPU speed capped at 1.1 x the 95th percentile (server); reported: usage x the host's reported peaks, uncapped (designs)"}, []string{"sent", "reported"}},
	{policy.OptionDoc{Name: "failed_benchmark", Default: "head", Doc: "head: flops 1e9 or <= 0 become 4.3e9 and the job a runtime outlier; classic: <= 0 becomes 1e10, 1e9 kept; none"}, []string{"head", "classic", "none"}},
	{policy.OptionDoc{Name: "sanity", Default: "clamp_bound", Doc: "claim above rsc_fpops_bound: clamp_bound (server HEAD), wu_estimate (server classic), default_pfc (v29: min_avg_pfc x E(J) and no statistics), none (v2)"}, []string{"clamp_bound", "wu_estimate", "default_pfc", "none"}},
	{policy.OptionDoc{Name: "max_granted_credit", Default: "73000000", Doc: "claims above it are dropped and credit is capped at it; 0 = none"}, nil},
	{policy.OptionDoc{Name: "averaging", Default: "boinc", Doc: "boinc: AVERAGE, mean of the first 19 (host) / 99 (version) samples then exponential, 10x cap; design: first 10 / 100 straight; est_weighted: sums of PFC over sums of E(J), no cap (v2)"}, []string{"boinc", "design", "est_weighted"}},
	{policy.OptionDoc{Name: "version_norm", Default: "groups", Doc: "groups: CPU and GPU group means, X = min, or the mean when one kind has >= 2 versions (v29, server); min: X = min over single versions (v2); off"}, []string{"groups", "min", "off"}},
	{policy.OptionDoc{Name: "version_samples", Default: "100", Doc: "samples a version needs before it is scaled and counted (counted only above it, as RSC_INFO does)"}, nil},
	{policy.OptionDoc{Name: "gpu_only", Default: "factor", Doc: "apps with only GPU versions: factor (X = gpu_only_factor x GPU mean, server) or central (RAC-weighted scale of the same plan class in apps with both kinds, designs)"}, []string{"factor", "central"}},
	{policy.OptionDoc{Name: "gpu_only_factor", Default: "0.1", Doc: "the server's DEFAULT_GPU_SCALE"}, nil},
	{policy.OptionDoc{Name: "median_hosts", Default: "false", Doc: "PFCmean(V) = median over hosts of PFCmean(H, V) (the CreditNew design page's proposal against cheating hosts)"}, []string{"false", "true"}},
	{policy.OptionDoc{Name: "timing", Default: "batched", Doc: "batched: version samples fold in at the end of a validator pass, scales change at feeder ticks (600 s, server); continuous: at once (designs)"}, []string{"batched", "continuous"}},
	{policy.OptionDoc{Name: "av_cache", Default: "validator", Doc: "validator: credit uses the validator's cached copy of each version's pfc_scale, read when it first meets the version and re-read only when it writes the version's statistics after a pass and finds the feeder changed the scale by more than 1e-6 (the server); fresh: a new scale is used from the next feeder tick (the designs); no effect with timing: continuous"}, []string{"validator", "fresh"}},
	{policy.OptionDoc{Name: "host_norm", Default: "true", Doc: "Scale(H) = PFCmean(V) / PFCmean(H, V)"}, []string{"true", "false"}},
	{policy.OptionDoc{Name: "host_samples", Default: "10", Doc: "host samples needed before host scaling (the version needs version_samples)"}, nil},
	{policy.OptionDoc{Name: "host_cap", Default: "10", Doc: "upper cap of Scale(H); 0 = none (v2); there is no floor"}, nil},
	{policy.OptionDoc{Name: "anonymous", Default: "host_scaled", Doc: "anonymous platform: host_scaled (raw x min_avg_pfc / PFCmean(H), uncapped, once 10 samples; server) or app_average (min_avg_pfc x E(J), v29)"}, []string{"host_scaled", "app_average"}},
	{policy.OptionDoc{Name: "replicas", Default: "pegged", Doc: "pegged: weighted around E(J) x min_avg_pfc, a lone NORMAL claim counted twice (server); mean_trusted: mean of non-anonymous, non-probation claims, else of all (v29); min (v2)"}, []string{"pegged", "mean_trusted", "min"}},
	{policy.OptionDoc{Name: "one_time", Default: "none", Doc: "one-time cheats: none (server); cap: claim <= one_time_factor x NPFC*(A) x E(J) (v2); probation: PFC/E > one_time_factor x PFCmean(V) puts the host on scale probation (v29)"}, []string{"none", "cap", "probation"}},
	{policy.OptionDoc{Name: "one_time_factor", Default: "10", Doc: "10 for v2's cap, 20 for v29's probation"}, nil},
	{policy.OptionDoc{Name: "cherry", Default: "none", Doc: "cherry picking: none (server default); cons_valid: host scaling only with >= 10 consecutive valid (host_scale_check); reset: on error, timeout or invalid, the host's averages are reset to the versions' (v2); probation: scale_probation and host_scale_time (v29)"}, []string{"none", "cons_valid", "reset", "probation"}},
	{policy.OptionDoc{Name: "probation_rearm", Default: "once", Doc: "v29 probation: once (host_scale_time set at the first send on probation) or every_send (re-armed at every send while on probation)"}, []string{"once", "every_send"}},
	{policy.OptionDoc{Name: "probation_caps_scale", Default: "true", Doc: "v29 probation: an error or timeout caps Scale(H) at 1 (our reading of \"max the scale factor with 1\")"}, []string{"true", "false"}},
}

// parse reads opts into a Config; missing options take their defaults.
func parse(opts policy.Options) (*Config, error) {
	vals := map[string]string{}
	for _, s := range optSpecs {
		v := s.doc.Default
		if x, ok := opts[s.doc.Name]; ok {
			v = x
		}
		if s.choices != nil {
			c, err := policy.Options{s.doc.Name: v}.Choice(s.doc.Name, s.doc.Default, s.choices...)
			if err != nil {
				return nil, err
			}
			v = c
		}
		vals[s.doc.Name] = v
	}
	num := func(name string, positive bool) (float64, error) {
		v, err := policy.Options{name: vals[name]}.Float(name, 0, positive)
		if err == nil && v < 0 {
			err = &policy.OptionError{Option: name, Value: vals[name], Reason: "must not be negative"}
		}
		return v, err
	}
	c := &Config{
		PeakSource: vals["peak"], FailedBench: vals["failed_benchmark"], Sanity: vals["sanity"],
		Averaging: vals["averaging"], VersionNorm: vals["version_norm"], GPUOnly: vals["gpu_only"],
		MedianHosts: vals["median_hosts"] == "true", Timing: vals["timing"], AVCache: vals["av_cache"], HostNorm: vals["host_norm"] == "true",
		Anonymous: vals["anonymous"], Replicas: vals["replicas"], OneTime: vals["one_time"], Cherry: vals["cherry"],
		ProbationRearm: vals["probation_rearm"], ProbationCapsOne: vals["probation_caps_scale"] == "true",
	}
	var err error
	for _, f := range []struct {
		name     string
		dst      *float64
		positive bool
	}{
		{"scale", &c.Scale, true}, {"max_granted_credit", &c.MaxGranted, false},
		{"version_samples", &c.VersionSamples, true}, {"gpu_only_factor", &c.GPUOnlyFactor, true},
		{"host_samples", &c.HostSamples, true}, {"host_cap", &c.HostCap, false},
		{"one_time_factor", &c.OneTimeFactor, true},
	} {
		if *f.dst, err = num(f.name, f.positive); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Presets are the documented option sets; each is registered as a
// policy instance name.
var Presets = []*policy.Preset{
	{Name: "v3pfc-boinc", Kind: "v3pfc", Standard: true,
		Doc:     "CreditNew as BOINC's server code does it today (HEAD)",
		Options: policy.Options{}},
	{Name: "v3pfc-boinc-classic", Kind: "v3pfc", Standard: true,
		Doc:     "the server code of 2012-2025 (BOINC's server code before 2025): no benchmark substitution except <= 0 -> 1e10, claims above the bound get the WU estimate",
		Options: policy.Options{"failed_benchmark": "classic", "sanity": "wu_estimate"}},
	{Name: "v3pfc-design-v29", Kind: "v3pfc", Standard: true,
		Doc: "the CreditNew design page, version 29",
		Options: policy.Options{
			"scale": "100", "peak": "reported", "failed_benchmark": "none", "sanity": "default_pfc", "max_granted_credit": "0",
			"averaging": "design", "gpu_only": "central", "timing": "continuous", "av_cache": "fresh", "anonymous": "app_average",
			"replicas": "mean_trusted", "one_time": "probation", "one_time_factor": "20",
		}},
	{Name: "v3pfc-design-v2", Kind: "v3pfc", Standard: true,
		Doc: "the CreditNew design page, version 2",
		Options: policy.Options{
			"peak": "reported", "failed_benchmark": "none", "sanity": "none", "max_granted_credit": "0",
			"averaging": "est_weighted", "version_norm": "min", "gpu_only": "central", "timing": "continuous", "av_cache": "fresh",
			"host_cap": "0", "anonymous": "app_average", "replicas": "min", "one_time": "cap", "one_time_factor": "10",
			"cherry": "reset",
		}},
}

func optionDocs() []policy.OptionDoc {
	out := make([]policy.OptionDoc, len(optSpecs))
	for i, s := range optSpecs {
		out[i] = s.doc
	}
	return out
}

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
