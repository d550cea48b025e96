package results

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
)

// HostRows appends one CSV row per host of this replication to w (the
// header is HostHeader). Columns after the host's truth repeat per policy.
func (c *Collector) HostRows(w *csv.Writer, rep int, policies []string) {
	for i, h := range c.hostInfo {
		if math.IsInf(h.Arrival, 1) {
			continue // an identity made ahead that never registered (new_identity)
		}
		a := &c.hosts[i]
		gpu := ""
		if h.NGPUs > 0 {
			gpu = h.GPUVendor.String()
		}
		eff, gflops := "", ""
		if a.n > 0 {
			eff = FormatFloat(a.effSum / float64(a.n))
		}
		if span := hostSpan(h.Arrival, h.Departure, c.win); span > 0 {
			gflops = FormatFloat(a.flops / span / 1e9)
		}
		row := []string{strconv.Itoa(rep + 1), strconv.Itoa(h.ID), strconv.Itoa(h.UserID), strconv.Itoa(h.TeamID),
			h.Behaviour.Name(), h.Platform, strconv.Itoa(h.NCPUs), FormatFloat(h.Whetstone / 1e9),
			gpu, strconv.Itoa(h.NGPUs), FormatFloat(h.GPUPeak / 1e9), FormatFloat(h.Arrival / boinc.SecondsPerDay), FormatFloat(h.Departure / boinc.SecondsPerDay),
			strconv.Itoa(a.n), eff, gflops, FormatFloat(a.d)}
		for p := range policies {
			l := c.sim.Ledger(p)
			gd := ""
			if a.d > 0 {
				gd = FormatFloat(a.g[p] / a.d)
			}
			row = append(row, FormatFloat(a.g[p]), gd, FormatFloat(l.Host(i).Total),
				FormatFloat(l.Host(i).RAC.Decayed(c.win.End, policy.CreditHalfLife)))
		}
		w.Write(row)
	}
}

func hostSpan(arrival, departure float64, win Window) float64 {
	from, to := max(arrival, win.From), min(departure, win.To)
	if to > from {
		return to - from
	}
	return 0
}

// HostHeader is the header of hosts.csv.
func HostHeader(policies []string) []string {
	h := []string{"replication", "host", "user", "team", "kind", "platform", "ncpus", "whetstone_gflops",
		"gpu", "ngpus", "gpu_peak_gflops", "arrival_day", "departure_day",
		"counted_results", "mean_efficiency", "true_gflops", "deserved_credit"}
	for _, p := range policies {
		h = append(h, p+".granted", p+".g_over_d", p+".total_credit", p+".rac")
	}
	return h
}

// TimeSeries returns policy p's daily CSV: credit granted each day, the
// decayed RAC of the sample hosts, and the policy's gauges.
func (c *Collector) TimeSeries(p int) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	sample := c.sim.SampleHosts()
	head := []string{"day", "credit_granted"}
	for _, h := range sample {
		head = append(head, "rac_host_"+strconv.Itoa(h))
	}
	// Gauges in order of first appearance: a host's scale appears only
	// once the host has samples.
	var gaugeNames []string
	seen := map[string]bool{}
	for _, d := range c.days {
		for _, g := range d.Gauges[p] {
			if !seen[g.Name] {
				seen[g.Name] = true
				gaugeNames = append(gaugeNames, g.Name)
			}
		}
	}
	head = append(head, gaugeNames...)
	w.Write(head)
	for _, d := range c.days {
		row := []string{strconv.Itoa(d.Day), FormatFloat(d.Credit[p])}
		for _, r := range d.RAC[p] {
			row = append(row, FormatFloat(r))
		}
		vals := map[string]float64{}
		for _, g := range d.Gauges[p] {
			vals[g.Name] = g.Value
		}
		for _, n := range gaugeNames {
			if v, ok := vals[n]; ok {
				row = append(row, FormatFloat(v))
			} else {
				row = append(row, "")
			}
		}
		w.Write(row)
	}
	w.Flush()
	return b.Bytes()
}

// Counted returns how many results counted.
func (c *Collector) Counted() int64 { return c.counted }

// SampleJobs returns sample-jobs.csv for this replication: every valid
// job of the sample hosts with the time its credit was granted, its
// deserved credit and each policy's credit.
func (c *Collector) SampleJobs(policies []string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"day", "host", "kind", "deserved_credit"}
	for _, p := range policies {
		head = append(head, p+".granted")
	}
	w.Write(head)
	for i, j := range c.jobs {
		row := []string{FormatFloat(j.T / boinc.SecondsPerDay), strconv.Itoa(j.Host), hosts.SampleKey(c.hostInfo[j.Host]), FormatFloat(j.D)}
		for _, g := range c.jobG[i*c.npol : (i+1)*c.npol] {
			row = append(row, FormatFloat(g))
		}
		w.Write(row)
	}
	w.Flush()
	return b.Bytes()
}
