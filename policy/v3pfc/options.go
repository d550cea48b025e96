package v3pfc

import (
	"strconv"

	"github.com/creditsim/creditsim/policy"
)

// The choices of v3pfc's options, as typed constants.
type (
	PeakSource     string
	FailedBench    string
	Sanity         string
	Averaging      string
	VersionNorm    string
	GPUOnly        string
	Timing         string
	AVCache        string
	Anonymous      string
	Replicas       string
	OneTime        string
	Cherry         string
	ProbationRearm string
	UntrustedLimit string
)

// Option values.
const (
	PeakSent     PeakSource = "sent"
	PeakReported PeakSource = "reported"

	FailedHead    FailedBench = "head"
	FailedClassic FailedBench = "classic"
	FailedNone    FailedBench = "none"

	SanityClampBound Sanity = "clamp_bound"
	SanityWUEstimate Sanity = "wu_estimate"
	SanityDefaultPFC Sanity = "default_pfc"
	SanityNone       Sanity = "none"

	AveragingBOINC       Averaging = "boinc"
	AveragingDesign      Averaging = "design"
	AveragingEstWeighted Averaging = "est_weighted"

	VersionNormGroups VersionNorm = "groups"
	VersionNormMin    VersionNorm = "min"
	VersionNormOff    VersionNorm = "off"

	GPUOnlyFactor  GPUOnly = "factor"
	GPUOnlyCentral GPUOnly = "central"

	TimingBatched    Timing = "batched"
	TimingContinuous Timing = "continuous"

	AVCacheValidator AVCache = "validator"
	AVCacheFresh     AVCache = "fresh"

	AnonymousHostScaled Anonymous      = "host_scaled"
	AnonymousAppAverage Anonymous      = "app_average"
	ReplicasPegged      Replicas       = "pegged"
	ReplicasMeanTrusted Replicas       = "mean_trusted"
	ReplicasMin         Replicas       = "min"
	OneTimeNone         OneTime        = "none"
	OneTimeCap          OneTime        = "cap"
	OneTimeProbation    OneTime        = "probation"
	CherryNone          Cherry         = "none"
	CherryConsValid     Cherry         = "cons_valid"
	CherryReset         Cherry         = "reset"
	CherryProbation     Cherry         = "probation"
	LimitEstimate       UntrustedLimit = "estimate"
	LimitReplica        UntrustedLimit = "replica"
	RearmOnce           ProbationRearm = "once"
	RearmEverySend      ProbationRearm = "every_send"
)

// Config is a parsed set of options: one field per mechanism.
type Config struct {
	Scale float64 // Cobblestones per GFLOPS-day

	PeakSource  PeakSource
	FailedBench FailedBench // substitution for 1e9 / missing benchmarks
	Sanity      Sanity
	MaxGranted  float64

	Averaging        Averaging
	VersionNorm      VersionNorm
	VersionSamples   float64
	GPUOnly          GPUOnly
	GPUOnlyFactor    float64 // the server's 0.1
	MedianHosts      bool    // PFCmean(V) = median over hosts of PFCmean(H, V)
	HostQuantile     float64 // the quantile median_hosts takes (0.5: the median)
	QuantileTrusted  bool    // only hosts the server trusts count towards it
	QuantileTenure   float64 // days: only hosts whose results span that long count
	QuantilePresent  float64 // days: and whose last report is no older
	Timing           Timing
	AVCache          AVCache
	HostNorm         bool
	HostSamples      float64
	HostCap          float64 // 0 = none
	Anonymous        Anonymous
	Replicas         Replicas
	OneTime          OneTime
	OneTimeFactor    float64
	Cherry           Cherry
	ProbationRearm   ProbationRearm
	ProbationCapsOne bool // an error caps Scale(H) at 1 ("max the scale factor with 1")
	// HostTrust is the run of replica-confirmed valid results a host
	// needs before its scale may exceed UntrustedCap (0: no gate).
	HostTrust       float64
	TrustPerVersion bool // trusted only on versions where the host has a scale
	UntrustedCap    float64
	// UntrustedLimit is what an unscaled untrusted claim is capped
	// against: the version mean host's claim for the job's estimate, or
	// a trusted replica's claim where the quorum holds one.
	UntrustedLimit UntrustedLimit
	// TrustFrom is whose trust the gate reads: the policy's own count
	// (own) or the server's (server).
	TrustFrom TrustSource
}

// TrustSource is whose trust the trust gate reads (trust_from).
type TrustSource string

// Trust sources.
const (
	TrustOwn    TrustSource = "own"
	TrustServer TrustSource = "server"
)

// decls declares every option once, into c's fields.
func (c *Config) decls() []policy.Decl {
	return []policy.Decl{
		policy.Float(&c.Scale, "scale", 200, policy.Positive, "Cobblestones per GFLOPS-day (server 200; design v29 writes 100)"),
		policy.Choice(&c.PeakSource, "peak", PeakSent, "sent: PFC = elapsed x flops_estimate fixed at send, CPU speed capped at 1.1 x the 95th percentile (server); reported: usage x the host's reported peaks, uncapped (designs)", PeakSent, PeakReported),
		policy.Choice(&c.FailedBench, "failed_benchmark", FailedHead, "head: flops 1e9 or <= 0 become 4.3e9 and the job a runtime outlier; classic: <= 0 becomes 1e10, 1e9 kept; none", FailedHead, FailedClassic, FailedNone),
		policy.Choice(&c.Sanity, "sanity", SanityClampBound, "claim above rsc_fpops_bound: clamp_bound (server HEAD), wu_estimate (server classic), default_pfc (v29: min_avg_pfc x E(J) and no statistics), none (v2)", SanityClampBound, SanityWUEstimate, SanityDefaultPFC, SanityNone),
		policy.Float(&c.MaxGranted, "max_granted_credit", policy.MaxGrantedCredit, policy.NonNegative, "claims above it are dropped and credit is capped at it; 0 = none"),
		policy.Choice(&c.Averaging, "averaging", AveragingBOINC, "boinc: AVERAGE, mean of the first 19 (host) / 99 (version) samples then exponential, 10x cap; design: first 10 / 100 straight; est_weighted: sums of PFC over sums of E(J), no cap (v2)", AveragingBOINC, AveragingDesign, AveragingEstWeighted),
		policy.Choice(&c.VersionNorm, "version_norm", VersionNormGroups, "groups: CPU and GPU group means, X = min, or the mean when one kind has >= 2 versions (v29, server); min: X = min over single versions (v2); off", VersionNormGroups, VersionNormMin, VersionNormOff),
		policy.Float(&c.VersionSamples, "version_samples", 100, policy.Positive, "samples a version needs before it is scaled and counted (counted only above it, as RSC_INFO does)"),
		policy.Choice(&c.GPUOnly, "gpu_only", GPUOnlyFactor, "apps with only GPU versions: factor (X = gpu_only_factor x GPU mean, server) or central (RAC-weighted scale of the same plan class in apps with both kinds, designs)", GPUOnlyFactor, GPUOnlyCentral),
		policy.Float(&c.GPUOnlyFactor, "gpu_only_factor", 0.1, policy.Positive, "the server's DEFAULT_GPU_SCALE"),
		policy.Bool(&c.MedianHosts, "median_hosts", false, "PFCmean(V) = median over hosts of PFCmean(H, V) (the CreditNew design page's proposal against cheating hosts)"),
		policy.Float(&c.HostQuantile, "host_quantile", 0.5, policy.NonNegative, "with median_hosts: the quantile of the host averages taken instead of the median (0 to 1)"),
		policy.Bool(&c.QuantileTrusted, "quantile_trusted", false, "with median_hosts: only hosts the server trusts (server.trust) count towards the quantile, so hosts that abort or fake, which it does not trust, cannot move it (hosts that keep only short jobs would pull a low quantile down for everyone); where the server trusts no host, all count"),
		policy.Float(&c.QuantileTenure, "quantile_tenure", 0, policy.NonNegative, "with median_hosts, in days: a host counts towards the quantile only once its validated results span that long (first sent to last reported) and while it is present (quantile_present), so an identity that lives less than that never counts and one account counts about once whatever its identities (0 = every host, gone or not)"),
		policy.Float(&c.QuantilePresent, "quantile_present", 2, policy.Positive, "with quantile_tenure, in days: a host counts only while its last validated result was reported no longer ago than this (results wait for their replicas, so less than the delay to validation drops present hosts)"),
		policy.Choice(&c.Timing, "timing", TimingBatched, "batched: version samples fold in at the end of a validator pass, scales change at feeder ticks (600 s, server); continuous: at once (designs)", TimingBatched, TimingContinuous),
		policy.Choice(&c.AVCache, "av_cache", AVCacheValidator, "validator: credit uses the validator's cached copy of each version's pfc_scale, read when it first meets the version and re-read only when it writes the version's statistics after a pass and finds the feeder changed the scale by more than 1e-6 (the server); fresh: a new scale is used from the next feeder tick (the designs); no effect with timing: continuous", AVCacheValidator, AVCacheFresh),
		policy.Bool(&c.HostNorm, "host_norm", true, "Scale(H) = PFCmean(V) / PFCmean(H, V)"),
		policy.Float(&c.HostSamples, "host_samples", 10, policy.Positive, "host samples needed before host scaling (the version needs version_samples)"),
		policy.Float(&c.HostCap, "host_cap", 10, policy.NonNegative, "upper cap of Scale(H); 0 = none (v2); there is no floor"),
		policy.Choice(&c.Anonymous, "anonymous", AnonymousHostScaled, "anonymous platform: host_scaled (raw x min_avg_pfc / PFCmean(H), uncapped, once 10 samples; server) or app_average (min_avg_pfc x E(J), v29)", AnonymousHostScaled, AnonymousAppAverage),
		policy.Choice(&c.Replicas, "replicas", ReplicasPegged, "pegged: weighted around E(J) x min_avg_pfc, a lone NORMAL claim counted twice (server); mean_trusted: mean of non-anonymous, non-probation claims, else of all (v29); min (v2)", ReplicasPegged, ReplicasMeanTrusted, ReplicasMin),
		policy.Choice(&c.OneTime, "one_time", OneTimeNone, "one-time cheats: none (server); cap: claim <= one_time_factor x NPFC*(A) x E(J) (v2); probation: PFC/E > one_time_factor x PFCmean(V) puts the host on scale probation (v29)", OneTimeNone, OneTimeCap, OneTimeProbation),
		policy.Float(&c.OneTimeFactor, "one_time_factor", 10, policy.Positive, "10 for v2's cap, 20 for v29's probation"),
		policy.Choice(&c.Cherry, "cherry", CherryNone, "cherry picking: none (server default); cons_valid: host scaling only with >= 10 consecutive valid (host_scale_check); reset: on error, timeout or invalid, the host's averages are reset to the versions' (v2); probation: scale_probation and host_scale_time (v29)", CherryNone, CherryConsValid, CherryReset, CherryProbation),
		policy.Choice(&c.ProbationRearm, "probation_rearm", RearmOnce, "v29 probation: once (host_scale_time set at the first send on probation) or every_send (re-armed at every send while on probation)", RearmOnce, RearmEverySend),
		policy.Bool(&c.ProbationCapsOne, "probation_caps_scale", true, "v29 probation: an error or timeout caps Scale(H) at 1 (our reading of \"max the scale factor with 1\")"),
		policy.Float(&c.HostTrust, "host_trust", 0, policy.NonNegative, "a host's scale (and an anonymous claim's host factor) may exceed untrusted_cap only after this many valid results in a row that another host's replica confirmed; an invalid, error, abort or timeout starts the count again; until the host has samples for a scale, an untrusted claim is at most untrusted_cap x the version mean's claim for the job; 0 = no gate (CreditNew)"),
		policy.Choice(&c.TrustFrom, "trust_from", TrustOwn, "with host_trust: own (the policy counts the host's replica-confirmed results, which colluders earn from one another) or server (the server's own trust, server.trust, built only from the project's checks and trusted hosts of other users)", TrustOwn, TrustServer),
		policy.Choice(&c.UntrustedLimit, "untrusted_limit", LimitEstimate, "with host_trust, what an untrusted host's claim is capped against: estimate (untrusted_cap x the version mean host's claim for the job's rsc_fpops_est, a flat amount per job where estimates do not follow job sizes) or replica (where the quorum holds a trusted host's result, untrusted_cap x the largest trusted claim, which follows the job's true size; else as estimate)", LimitEstimate, LimitReplica),
		policy.Bool(&c.TrustPerVersion, "trust_per_version", false, "with host_trust: a trusted host counts as untrusted on a version until it has host_samples samples there; else, trusted on one version and without a scale on another, its claims there are neither scaled nor capped (a benchmark inflator trusted on one app is paid its inflated claims on another it seldom runs)"),
		policy.Float(&c.UntrustedCap, "untrusted_cap", 1.1, policy.Positive, "the cap on an untrusted host's scale (host_trust > 0); 1.1 is the CreditNew design page's bound on what cheating may earn"),
	}
}

// parse reads opts into a Config; missing options take their defaults.
func parse(opts policy.Options) (*Config, error) {
	c := &Config{}
	if err := policy.ParseOptions(opts, c.decls()); err != nil {
		return nil, err
	}
	if c.HostQuantile > 1 {
		return nil, &policy.OptionError{Option: "host_quantile", Value: formatFloat(c.HostQuantile), Reason: "must be at most 1"}
	}
	return c, nil
}

// Presets are the documented option sets; each is registered as a
// policy instance name.
var Presets = []*policy.Preset{
	{Name: "v4trust", Kind: "v3pfc", Standard: true,
		UseWhen: "replicated jobs, to study trust before scale (a fourth system, not in BOINC)",
		Doc:     "the fourth system (trust before scale): CreditNew as the server runs it, except that a version's mean is the lower quartile of its hosts' means (of the hosts the server trusts, where it trusts any, and present a week or more), a host's scale may raise its claims only once replicas from other hosts confirmed its last 20 results in a row, and then at most 1.5 x, a claim is the host's reported peak x its runtime, not the speed the server caps at send, an untrusted host's claim is at most a trusted replica's where the quorum holds one (else the version mean host's for the job's estimate), and a host is trusted on a version only once it has a scale there",
		Options: policy.Options{"median_hosts": "true", "host_quantile": "0.25", "quantile_trusted": "true", "quantile_tenure": "7", "quantile_present": "2", "host_trust": "20", "untrusted_cap": "1", "host_cap": "1.5", "peak": "reported", "untrusted_limit": "replica", "trust_per_version": "true"}},
	{Name: "v3pfc-boinc", Kind: "v3pfc", Standard: true,
		UseWhen: "the server's default when apps cannot count FLOPs; replicate jobs against fakes",
		Doc:     "CreditNew as BOINC's server code does it today (HEAD)",
		Options: policy.Options{}},
	{Name: "v3pfc-boinc-classic", Kind: "v3pfc", Standard: true,
		UseWhen: "as v3pfc-boinc, for servers older than 2025",
		Doc:     "the server code of 2012-2025 (BOINC's server code before 2025): no benchmark substitution except <= 0 -> 1e10, claims above the bound get the WU estimate",
		Options: policy.Options{"failed_benchmark": "classic", "sanity": "wu_estimate"}},
	{Name: "v3pfc-design-v29", Kind: "v3pfc", Standard: true,
		UseWhen: "to study the design page; servers run v3pfc-boinc",
		Doc:     "the CreditNew design page, version 29",
		Options: policy.Options{
			"scale": "100", "peak": "reported", "failed_benchmark": "none", "sanity": "default_pfc", "max_granted_credit": "0",
			"averaging": "design", "gpu_only": "central", "timing": "continuous", "av_cache": "fresh", "anonymous": "app_average",
			"replicas": "mean_trusted", "one_time": "probation", "one_time_factor": "20",
		}},
	{Name: "v3pfc-design-v2", Kind: "v3pfc", Standard: true,
		UseWhen: "to study the design page; servers run v3pfc-boinc",
		Doc:     "the CreditNew design page, version 2",
		Options: policy.Options{
			"peak": "reported", "failed_benchmark": "none", "sanity": "none", "max_granted_credit": "0",
			"averaging": "est_weighted", "version_norm": "min", "gpu_only": "central", "timing": "continuous", "av_cache": "fresh",
			"host_cap": "0", "anonymous": "app_average", "replicas": "min", "one_time": "cap", "one_time_factor": "10",
			"cherry": "reset",
		}},
}

func optionDocs() []policy.OptionDoc { return policy.Docs((&Config{}).decls()) }

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// mechanisms are CreditNew's parts an ablation switches off, each by the
// option value that removes it.
var mechanisms = []policy.Mechanism{
	{Name: "version_norm", Doc: "version normalisation (scale each version to the most efficient)", Option: "version_norm", Off: string(VersionNormOff)},
	{Name: "host_norm", Doc: "host normalisation (scale each host to its version's mean)", Option: "host_norm", Off: "false"},
	{Name: "host_cap", Doc: "the cap on a host's scale (10 in the server)", Option: "host_cap", Off: "0"},
	{Name: "sent_peak", Doc: "PFC from flops_estimate fixed at send, CPU speed capped at 1.1 x the 95th percentile", Option: "peak", Off: string(PeakReported)},
	{Name: "sanity", Doc: "the sanity check against rsc_fpops_bound", Option: "sanity", Off: string(SanityNone)},
	{Name: "max_granted", Doc: "max_granted_credit", Option: "max_granted_credit", Off: "0"},
	{Name: "failed_benchmark", Doc: "the failed-benchmark substitution", Option: "failed_benchmark", Off: string(FailedNone)},
	{Name: "median_hosts", Doc: "the median of hosts for a version's mean", Option: "median_hosts", Off: "false"},
	{Name: "quantile_trusted", Doc: "only hosts the server trusts in the quantile of hosts for a version's mean", Option: "quantile_trusted", Off: "false"},
	{Name: "quantile_tenure", Doc: "only hosts of a week's standing, still present, in the quantile of hosts for a version's mean", Option: "quantile_tenure", Off: "0"},
	{Name: "one_time", Doc: "the one-time-cheat guard", Option: "one_time", Off: string(OneTimeNone)},
	{Name: "cherry", Doc: "the cherry-picking guard", Option: "cherry", Off: string(CherryNone)},
	{Name: "host_trust", Doc: "the trust gate: no scale above untrusted_cap until replicas confirm the host", Option: "host_trust", Off: "0"},
	{Name: "trust_per_version", Doc: "trust on a version only once the host has a scale there", Option: "trust_per_version", Off: "false"},
	{Name: "untrusted_limit", Doc: "an untrusted claim capped by a trusted replica's, not by the version mean's for the estimate", Option: "untrusted_limit", Off: string(LimitEstimate)},
}
