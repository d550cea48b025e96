package jobs

import (
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/param"
)

// Project is one BOINC project.
type Project struct {
	Name string `yaml:"name"`
	// ResourceShare is the default share hosts give the project when they
	// are attached to several.
	ResourceShare float64 `yaml:"resource_share"`
	Apps          []App   `yaml:"apps"`
}

// App is an application and its workunit stream.
type App struct {
	Name string `yaml:"name"`
	// Weight is the app's share of the project's jobs.
	Weight float64 `yaml:"weight"`
	// RscFpopsEst is E(J), the project's a-priori estimate of a job's FLOPs.
	RscFpopsEst float64 `yaml:"rsc_fpops_est"`
	// SizeError multiplies E(J) to give a job's true FLOPs.
	SizeError param.Dist `yaml:"size_error"`
	// SizeClasses mix job sizes (e.g. 10% long jobs at 100 x); a class the
	// project can tell apart has its estimate scaled too.
	SizeClasses []SizeClass `yaml:"size_classes"`
	// BoundFactor sets rsc_fpops_bound = BoundFactor x rsc_fpops_est.
	BoundFactor     float64        `yaml:"bound_factor"`
	DelayBound      param.Duration `yaml:"delay_bound"`
	MinQuorum       int            `yaml:"min_quorum"`
	TargetNResults  int            `yaml:"target_nresults"`
	MaxErrorResults int            `yaml:"max_error_results"`
	MaxTotalResults int            `yaml:"max_total_results"`
	// MaxSuccessResults fails a workunit whose successful results, more
	// than this many, still do not agree (BOINC's validator); 0 leaves
	// max_total_results the only limit.
	MaxSuccessResults int `yaml:"max_success_results"`
	// AdaptiveReplication sends a job once to a trusted host (10
	// consecutive valid results, then with probability 1 - 1/n).
	AdaptiveReplication bool      `yaml:"adaptive_replication"`
	Versions            []Version `yaml:"versions"`
}

// SizeClass is a kind of job within an app.
type SizeClass struct {
	Name   string  `yaml:"name"`
	Share  float64 `yaml:"share"`
	Factor float64 `yaml:"factor"`
	// Estimated marks a class the project knows the size of: its
	// rsc_fpops_est is scaled by Factor too. Otherwise E(J) is the app's.
	Estimated bool `yaml:"estimated"`
}

// Version is an app version.
type Version struct {
	Name      string `yaml:"name"`
	Platform  string `yaml:"platform"`
	Resource  string `yaml:"resource"`
	PlanClass string `yaml:"plan_class"`
	// CPUUsage is avg_ncpus; GPUUsage the GPUs used (fractional allowed).
	CPUUsage float64 `yaml:"cpu_usage"`
	GPUUsage float64 `yaml:"gpu_usage"`
	// MultiThread is a multi-threaded plan class: each job's avg_ncpus is
	// the CPU count its host reports, and it runs on all the host's CPUs
	// (cpu_usage is then not used).
	MultiThread bool `yaml:"multi_thread"`
	// Efficiency is actual / peak FLOPS, drawn per (host, version).
	Efficiency param.Dist `yaml:"efficiency"`
	// CPUTimeFraction is CPU time / (elapsed x cpu_usage).
	CPUTimeFraction float64 `yaml:"cpu_time_fraction"`
	// Anonymous marks an anonymous-platform version (app_info.xml): the
	// volunteer supplies the binary. AnonymousShare is the fraction of
	// hosts of the version's platform (and device) that run it; those
	// hosts use only the app's anonymous versions for that resource, and
	// other hosts never get them.
	Anonymous      bool    `yaml:"anonymous"`
	AnonymousShare float64 `yaml:"anonymous_share"`
	CountsFlops    bool    `yaml:"counts_flops"`
	// CountError multiplies the true FLOPs to give the count an app that
	// counts FLOPs reports (drawn per job; default exact).
	CountError param.Dist `yaml:"count_error"`
	// Release is when the version becomes available.
	Release param.Duration `yaml:"release"`
}

// DefaultApp returns an app's defaults, applied to every app before its
// YAML is decoded.
func DefaultApp() App {
	return App{
		Weight:          1,
		SizeError:       param.Dist{Kind: "lognormal", Mean: 1, CV: 0.1},
		BoundFactor:     10,
		DelayBound:      param.Duration(7 * boinc.SecondsPerDay),
		MinQuorum:       2,
		TargetNResults:  2,
		MaxErrorResults: 3,
		MaxTotalResults: 8,
	}
}

// DefaultVersion returns a version's defaults.
func DefaultVersion() Version {
	return Version{
		Resource:        "cpu",
		CPUUsage:        1,
		Efficiency:      param.Dist{Kind: "lognormal", Mean: 0.5, CV: 0.2, Max: param.Ptr(1)},
		CPUTimeFraction: 0.98,
		CountError:      param.Const(1),
	}
}

// DefaultProject returns a project's defaults.
func DefaultProject() Project { return Project{ResourceShare: 100} }

// Validate checks the projects; platforms lists the hosts' platforms.
func Validate(k param.Check, projects []Project, platforms map[string]bool) {
	if len(projects) == 0 {
		k.Fail("", param.Raw("[]"), "at least one project is needed")
	}
	names := map[string]bool{}
	for i := range projects {
		p := &projects[i]
		pk := k.Index(i)
		if p.Name == "" {
			pk.Fail("name", p.Name, "a project needs a name")
		}
		if names[p.Name] {
			pk.Fail("name", p.Name, "project named twice")
		}
		names[p.Name] = true
		pk.Positive("resource_share", p.ResourceShare)
		if len(p.Apps) == 0 {
			pk.Fail("apps", param.Raw("[]"), "a project needs at least one app")
		}
		apps := map[string]bool{}
		for j := range p.Apps {
			a := &p.Apps[j]
			a.validate(pk.Field("apps").Index(j), platforms)
			if apps[a.Name] {
				pk.Field("apps").Index(j).Fail("name", a.Name, "app named twice in the project")
			}
			apps[a.Name] = true
		}
	}
}

func (a *App) validate(k param.Check, platforms map[string]bool) {
	if a.Name == "" {
		k.Fail("name", a.Name, "an app needs a name")
	}
	k.Positive("weight", a.Weight)
	k.Positive("rsc_fpops_est", a.RscFpopsEst)
	n := len(k.Errors())
	a.SizeError.Validate(k.Field("size_error"))
	if len(k.Errors()) == n {
		if lo, _ := a.SizeError.Bounds(); lo < 0 || (a.SizeError.Kind == "const" && lo == 0) {
			k.Fail("size_error", lo, "job sizes must be above 0")
		}
		if a.SizeError.Kind == "normal" && a.SizeError.Min == nil {
			k.Field("size_error").Fail("min", param.Raw("unset"), "a normal size error needs min above 0")
		}
	}
	share := 0.0
	for i, c := range a.SizeClasses {
		ck := k.Field("size_classes").Index(i)
		ck.NonNegative("share", c.Share)
		ck.Positive("factor", c.Factor)
		share += c.Share
	}
	if len(a.SizeClasses) > 0 && !(share > 0) {
		k.Fail("size_classes", share, "shares must not all be 0")
	}
	if share > 1+1e-9 {
		k.Fail("size_classes", param.Raw(strconv.FormatFloat(share, 'g', 6, 64)), "shares add up to more than 1")
	}
	if !(a.BoundFactor >= 1) {
		k.Fail("bound_factor", a.BoundFactor, "must be at least 1 (rsc_fpops_bound >= rsc_fpops_est)")
	}
	k.DurationRange("delay_bound", a.DelayBound, param.Minute, 365*param.Day)
	if a.MinQuorum < 1 {
		k.Fail("min_quorum", a.MinQuorum, "must be at least 1")
	}
	if a.TargetNResults < a.MinQuorum {
		k.Fail("target_nresults", a.TargetNResults, "must be at least min_quorum")
	}
	if a.MaxErrorResults < 1 {
		k.Fail("max_error_results", a.MaxErrorResults, "must be at least 1")
	}
	if a.MaxTotalResults < a.TargetNResults {
		k.Fail("max_total_results", a.MaxTotalResults, "must be at least target_nresults")
	}
	if a.MaxTotalResults > 64 {
		k.Fail("max_total_results", a.MaxTotalResults, "at most 64 results per workunit are modelled")
	}
	switch {
	case a.MaxSuccessResults < 0 || a.MaxSuccessResults > 0 && a.MaxSuccessResults < a.TargetNResults:
		k.Fail("max_success_results", a.MaxSuccessResults, "must be at least target_nresults (BOINC raises it to that), or 0 for no limit but max_total_results")
	case a.MaxSuccessResults > a.MaxTotalResults:
		k.Fail("max_success_results", a.MaxSuccessResults, "must be at most max_total_results (BOINC refuses such a job)")
	}
	if a.AdaptiveReplication && a.MinQuorum < 2 {
		k.Fail("adaptive_replication", true, "needs min_quorum of at least 2 (it decides when to send a job once)")
	}
	if len(a.Versions) == 0 {
		k.Fail("versions", param.Raw("[]"), "an app needs at least one version")
	}
	names := map[string]bool{}
	for i := range a.Versions {
		v := &a.Versions[i]
		vk := k.Field("versions").Index(i)
		v.validate(vk, platforms)
		if names[v.Name] {
			vk.Fail("name", v.Name, "version named twice in the app")
		}
		names[v.Name] = true
	}
}

func (v *Version) validate(k param.Check, platforms map[string]bool) {
	r, ok := boinc.ParseResource(v.Resource)
	if !ok {
		k.Fail("resource", v.Resource, "unknown resource (known: "+strings.Join(boinc.ResourceNames(), ", ")+")")
	}
	if v.Name == "" {
		v.Name = v.Platform + "-" + v.Resource
		if v.PlanClass != "" {
			v.Name += "-" + v.PlanClass
		}
	}
	if !platforms[v.Platform] {
		k.Fail("platform", v.Platform, "no host has this platform (hosts.platforms)")
	}
	if ok && r.IsGPU() {
		if !(v.GPUUsage > 0) {
			k.Fail("gpu_usage", v.GPUUsage, "a GPU version needs gpu_usage above 0")
		}
		k.NonNegative("cpu_usage", v.CPUUsage)
		if v.MultiThread {
			k.Fail("multi_thread", v.MultiThread, "a GPU version is not multi-threaded: multi_thread is for CPU versions")
		}
	} else {
		k.Positive("cpu_usage", v.CPUUsage)
		if v.GPUUsage != 0 {
			k.Fail("gpu_usage", v.GPUUsage, "a CPU version uses no GPU")
		}
	}
	n := len(k.Errors())
	v.Efficiency.Validate(k.Field("efficiency"))
	if len(k.Errors()) == n {
		lo, hi := v.Efficiency.Bounds()
		switch {
		case v.Efficiency.MeanValue() > 1 || hi > 1 && (v.Efficiency.Kind == "const" || v.Efficiency.Kind == "choice" || v.Efficiency.Kind == "uniform"):
			k.Fail("efficiency", v.Efficiency.MeanValue(), "efficiency (actual / peak FLOPS) cannot be above 1")
		case hi > 1:
			k.Field("efficiency").Fail("max", param.Raw("unset"), "efficiency draws must be capped at 1: set max: 1")
		case !(lo > 0) && (v.Efficiency.Kind == "const" || v.Efficiency.Kind == "choice" || v.Efficiency.Kind == "uniform"):
			k.Fail("efficiency", lo, "efficiency must be above 0")
		}
	}
	if !(v.CPUTimeFraction > 0 && v.CPUTimeFraction <= 1) {
		k.Fail("cpu_time_fraction", v.CPUTimeFraction, "must be above 0 and at most 1")
	}
	k.NonNegative("release", float64(v.Release))
	n = len(k.Errors())
	v.CountError.Validate(k.Field("count_error"))
	if lo, _ := v.CountError.Bounds(); len(k.Errors()) == n && !(lo > 0) {
		k.Fail("count_error", lo, "a FLOP count must be above 0: set min above 0")
	}
	switch {
	case v.Anonymous && !(v.AnonymousShare > 0 && v.AnonymousShare <= 1):
		k.Fail("anonymous_share", v.AnonymousShare, "an anonymous version needs the share of hosts that run it, above 0 and at most 1")
	case !v.Anonymous && v.AnonymousShare != 0:
		k.Fail("anonymous_share", v.AnonymousShare, "only an anonymous version (anonymous: true) has a share")
	}
}
