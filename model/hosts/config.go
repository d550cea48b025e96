package hosts

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/param"
)

// Config describes a host population.
type Config struct {
	// Initial hosts are attached at time 0; more arrive as a Poisson
	// process at ArrivalsPerDay and each stays for a Lifetime draw.
	Initial        int        `yaml:"initial"`
	ArrivalsPerDay float64    `yaml:"arrivals_per_day"`
	Lifetime       param.Dist `yaml:"lifetime"`

	// HostsPerUser is drawn per user (rounded, at least 1). Teams is the
	// number of teams; TeamShare the fraction of users in one.
	HostsPerUser param.Dist `yaml:"hosts_per_user"`
	Teams        int        `yaml:"teams"`
	TeamShare    float64    `yaml:"team_share"`

	CPU       CPUConfig       `yaml:"cpu"`
	GPU       GPUConfig       `yaml:"gpu"`
	Platforms []PlatformShare `yaml:"platforms"`

	Availability Availability `yaml:"availability"`

	// ErrorRate is each host's probability that a job ends in a client
	// error (drawn per host); InvalidRate that a completed result is wrong.
	ErrorRate   param.Dist `yaml:"error_rate"`
	InvalidRate param.Dist `yaml:"invalid_rate"`
	// RuntimeNoise is the CV of a job's elapsed time around its expected
	// value on a host (OS noise, other load).
	RuntimeNoise float64 `yaml:"runtime_noise"`

	// WorkBuffer is how much work (estimated runtime) the client keeps
	// queued; it asks for more when below WorkBufferMin.
	WorkBuffer    param.Duration `yaml:"work_buffer"`
	WorkBufferMin param.Duration `yaml:"work_buffer_min"`
	// ReportDelay is the longest a completed result waits before the client
	// contacts the scheduler to report it.
	ReportDelay param.Duration `yaml:"report_delay"`
	// AccountManagerInterval is how often the client calls its account
	// manager (Science United asks for 12 hours) to report the estimated
	// credit it has accumulated per project; no call while it is off.
	AccountManagerInterval param.Duration `yaml:"account_manager_interval"`

	// Agents assigns behaviours to a share of users (accounts).
	Agents []AgentConfig `yaml:"agents"`

	// Twin makes the population the run's honest twin: the same hosts,
	// accounts and draws, each host keeping the Group its account was
	// drawn into, but every behaviour switched off.
	Twin bool `yaml:"-"`
}

// CPUConfig describes the CPUs: cores per host, Whetstone GFLOPS per core
// and the Dhrystone/Whetstone ratio.
type CPUConfig struct {
	Cores           param.Dist `yaml:"cores"`
	WhetstoneGFLOPS param.Dist `yaml:"whetstone_gflops"`
	DhrystoneRatio  param.Dist `yaml:"dhrystone_ratio"`
}

// GPUConfig describes GPUs: the share of hosts with one, their vendors,
// how many, and peak FLOPS as a multiple of the host's whole-CPU peak.
type GPUConfig struct {
	Share     float64       `yaml:"share"`
	Vendors   []VendorShare `yaml:"vendors"`
	Count     param.Dist    `yaml:"count"`
	PeakRatio param.Dist    `yaml:"peak_ratio"`
}

// VendorShare is one GPU vendor's share of GPU hosts.
type VendorShare struct {
	Vendor string  `yaml:"vendor"`
	Share  float64 `yaml:"share"`
}

// PlatformShare is one platform's share of hosts.
type PlatformShare struct {
	Name  string  `yaml:"name"`
	Share float64 `yaml:"share"`
}

// Availability models when a host computes. Model "always"; "on_fraction"
// alternates exponential on and off periods averaging OnFraction of Period;
// "weibull" draws on periods from OnPeriod (default Weibull shape 0.393,
// scale 2.964 h, as fitted to SETI@home hosts) and off periods from OffPeriod.
type Availability struct {
	Model      string         `yaml:"model"`
	OnFraction float64        `yaml:"on_fraction"`
	Period     param.Duration `yaml:"period"`
	OnPeriod   param.Dist     `yaml:"on_period"`
	OffPeriod  param.Dist     `yaml:"off_period"`
}

// AvailabilityModels lists the availability models.
var AvailabilityModels = []string{"always", "on_fraction", "weibull"}

// Default returns the default population: the SETI@home 2024 CPU table's
// about 4.2 GFLOPS per core with CV 0.2 and a median of 8 cores.
func Default() Config {
	return Config{
		Initial:        2000,
		ArrivalsPerDay: 20,
		Lifetime:       param.Dist{Kind: "exponential", Mean: 180 * boinc.SecondsPerDay},
		HostsPerUser:   param.Dist{Kind: "choice", Values: []param.Num{1, 2, 3, 5}, Weights: []float64{0.75, 0.15, 0.07, 0.03}},
		Teams:          100,
		TeamShare:      0.4,
		CPU: CPUConfig{
			Cores:           param.Dist{Kind: "choice", Values: []param.Num{2, 4, 6, 8, 12, 16, 24, 32}, Weights: []float64{0.06, 0.2, 0.12, 0.22, 0.14, 0.14, 0.06, 0.06}},
			WhetstoneGFLOPS: param.Dist{Kind: "lognormal", Mean: 4.2, CV: 0.2},
			DhrystoneRatio:  param.Dist{Kind: "lognormal", Mean: 2.5, CV: 0.25},
		},
		GPU: GPUConfig{
			Share:     0,
			Vendors:   []VendorShare{{"nvidia", 0.7}, {"amd", 0.25}, {"intel_gpu", 0.05}},
			Count:     param.Const(1),
			PeakRatio: param.Dist{Kind: "uniform", Min: param.Ptr(50), Max: param.Ptr(100)},
		},
		Platforms: []PlatformShare{{"windows_x86_64", 0.7}, {"x86_64-pc-linux-gnu", 0.3}},
		Availability: Availability{
			Model:      "weibull",
			OnFraction: 0.7,
			Period:     param.Duration(boinc.SecondsPerDay),
			OnPeriod:   param.Dist{Kind: "weibull", Shape: 0.393, Scale: 2.964 * 3600},
			OffPeriod:  param.Dist{Kind: "lognormal", Mean: 6 * 3600, CV: 2},
		},
		ErrorRate:              param.Const(0.02),
		InvalidRate:            param.Const(0.005),
		RuntimeNoise:           0.05,
		WorkBuffer:             param.Duration(0.5 * boinc.SecondsPerDay),
		WorkBufferMin:          param.Duration(0.1 * boinc.SecondsPerDay),
		ReportDelay:            param.Duration(3600),
		AccountManagerInterval: param.Duration(12 * 3600),
	}
}

// Validate checks c; platforms known to the jobs model are checked by
// the scenario, which sees both.
func (c *Config) Validate(k param.Check) {
	if c.Initial < 0 {
		k.Fail("initial", c.Initial, "must not be negative")
	}
	k.NonNegative("arrivals_per_day", c.ArrivalsPerDay)
	if c.Initial == 0 && c.ArrivalsPerDay == 0 {
		k.Fail("initial", c.Initial, "empty host population: set initial or arrivals_per_day above 0")
	}
	checkPositiveDist(k.Field("lifetime"), c.Lifetime)
	checkPositiveDist(k.Field("hosts_per_user"), c.HostsPerUser)
	if c.Teams < 0 {
		k.Fail("teams", c.Teams, "must not be negative")
	}
	k.Range("team_share", c.TeamShare, 0, 1)
	if c.TeamShare > 0 && c.Teams == 0 {
		k.Fail("teams", c.Teams, "team_share is above 0 but there are no teams")
	}
	cpu := k.Field("cpu")
	checkPositiveDist(cpu.Field("cores"), c.CPU.Cores)
	checkPositiveDist(cpu.Field("whetstone_gflops"), c.CPU.WhetstoneGFLOPS)
	checkPositiveDist(cpu.Field("dhrystone_ratio"), c.CPU.DhrystoneRatio)
	c.validateGPU(k.Field("gpu"))
	c.validatePlatforms(k)
	c.validateAvailability(k)
	checkProbabilityDist(k.Field("error_rate"), c.ErrorRate)
	checkProbabilityDist(k.Field("invalid_rate"), c.InvalidRate)
	k.NonNegative("runtime_noise", c.RuntimeNoise)
	n := len(k.Errors())
	k.DurationRange("work_buffer", c.WorkBuffer, param.Minute, 30*param.Day)
	k.DurationRange("work_buffer_min", c.WorkBufferMin, 0, 30*param.Day)
	bufferOK := len(k.Errors()) == n
	k.DurationRange("report_delay", c.ReportDelay, 0, 30*param.Day)
	k.DurationRange("account_manager_interval", c.AccountManagerInterval, param.Minute, 30*param.Day)
	if bufferOK && c.WorkBufferMin > c.WorkBuffer {
		k.Fail("work_buffer_min", c.WorkBufferMin, fmt.Sprintf("is above work_buffer (%s)", param.FormatDuration(float64(c.WorkBuffer))))
	}
	for i := range c.Agents {
		c.Agents[i].validate(k.Field("agents").Index(i))
	}
	total := 0.0
	for _, a := range c.Agents {
		total += a.Share
	}
	if total > 1+1e-12 {
		k.Fail("agents", total, "agent shares add up to more than 1")
	}
}

// validateGPU checks the GPU share, vendors, counts and peaks.
func (c *Config) validateGPU(gpu param.Check) {
	gpu.Range("share", c.GPU.Share, 0, 1)
	if c.GPU.Share > 0 {
		if len(c.GPU.Vendors) == 0 {
			gpu.Fail("vendors", param.Raw("[]"), "GPU hosts need at least one vendor")
		}
		for i, v := range c.GPU.Vendors {
			r, ok := boinc.ParseResource(v.Vendor)
			if !ok || !r.IsGPU() {
				gpu.Field("vendors").Index(i).Fail("vendor", v.Vendor, "unknown GPU vendor (known: nvidia, amd, intel_gpu, apple_gpu)")
			}
			gpu.Field("vendors").Index(i).NonNegative("share", v.Share)
		}
		atMostOne(gpu, "vendors", len(c.GPU.Vendors), func(i int) float64 { return c.GPU.Vendors[i].Share })
		checkPositiveDist(gpu.Field("count"), c.GPU.Count)
		checkPositiveDist(gpu.Field("peak_ratio"), c.GPU.PeakRatio)
	}
}

// validatePlatforms checks that each platform is named, once, with a
// share, the shares adding up to at most 1.
func (c *Config) validatePlatforms(k param.Check) {
	if len(c.Platforms) == 0 {
		k.Fail("platforms", param.Raw("[]"), "at least one platform is needed")
	}
	seen := map[string]bool{}
	for i, p := range c.Platforms {
		pk := k.Field("platforms").Index(i)
		if p.Name == "" {
			pk.Fail("name", p.Name, "a platform needs a name")
		}
		if seen[p.Name] {
			pk.Fail("name", p.Name, "platform listed twice")
		}
		seen[p.Name] = true
		pk.NonNegative("share", p.Share)
	}
	atMostOne(k, "platforms", len(c.Platforms), func(i int) float64 { return c.Platforms[i].Share })
}

// validateAvailability checks the availability model and its settings.
func (c *Config) validateAvailability(k param.Check) {
	a := k.Field("availability")
	switch c.Availability.Model {
	case "always":
	case "on_fraction":
		if !(c.Availability.OnFraction > 0 && c.Availability.OnFraction <= 1) {
			a.Fail("on_fraction", c.Availability.OnFraction, "must be above 0 and at most 1")
		}
		a.DurationRange("period", c.Availability.Period, param.Minute, 365*param.Day)
	case "weibull":
		for _, p := range []struct {
			name string
			d    param.Dist
		}{{"on_period", c.Availability.OnPeriod}, {"off_period", c.Availability.OffPeriod}} {
			n := len(k.Errors())
			checkPositiveDist(a.Field(p.name), p.d)
			// Each period is an event per host: periods of microseconds
			// would never let the clock move.
			if m := p.d.MeanValue(); len(k.Errors()) == n && !(m >= param.Second) {
				a.Fail(p.name, param.Raw(param.FormatDuration(m)+" on average"), "periods must average at least 1s")
			}
		}
	default:
		a.Fail("model", c.Availability.Model, "unknown availability model (known: "+strings.Join(AvailabilityModels, ", ")+")")
	}
}

// checkPositiveDist: the distribution is valid and cannot draw a negative
// value (or a non-positive one where min is not set above 0).
func checkPositiveDist(k param.Check, d param.Dist) {
	n := len(k.Errors())
	d.Validate(k)
	if len(k.Errors()) > n {
		return
	}
	lo, _ := d.Bounds()
	if lo < 0 || (d.Kind == "const" || d.Kind == "choice") && lo <= 0 {
		k.Fail("", lo, "values must be above 0")
	}
	if d.Kind == "normal" && d.Min == nil {
		k.Fail("min", param.Raw("unset"), "a normal distribution here needs min above 0")
	}
}

// checkProbabilityDist: every draw lies in [0, 1].
func checkProbabilityDist(k param.Check, d param.Dist) {
	n := len(k.Errors())
	d.Validate(k)
	if len(k.Errors()) > n {
		return
	}
	lo, hi := d.Bounds()
	if lo < 0 || hi > 1 || math.IsInf(hi, 1) {
		if d.Kind == "const" || d.Kind == "choice" || d.Kind == "uniform" {
			k.Fail("", rangeValue(lo, hi), "must lie between 0 and 1")
		} else {
			k.Fail("max", param.Raw("unset"), "a probability distribution needs min 0 and max at most 1")
		}
	}
}

// rangeValue shows a distribution's range, or its one value.
func rangeValue(lo, hi float64) any {
	if lo == hi {
		return lo
	}
	return param.Raw(fmt.Sprintf("%g..%g", lo, hi))
}

// atMostOne fails a group of shares whose total is above 1.
func atMostOne(k param.Check, field string, n int, share func(int) float64) {
	total := 0.0
	for i := 0; i < n; i++ {
		total += share(i)
	}
	if total > 1+1e-9 {
		k.Fail(field, param.Raw(strconv.FormatFloat(total, 'g', 6, 64)), "shares add up to more than 1")
	}
}
