package fit

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/internal/inputlimit"
)

// configOption is a config.xml option creditsim models: its scenario
// key, whether it is a flag, and BOINC's default when the tag is absent
// ("": creditsim's default stands).
type configOption struct {
	key    string
	flag   bool
	absent string
}

// configOptions are the options of a project's config.xml (<config>)
// that the fitted scenario takes, by tag.
var configOptions = map[string]configOption{
	"daily_result_quota":         {key: "server.daily_result_quota"},
	"max_wus_to_send":            {key: "server.max_wus_to_send", absent: "10"},
	"gpu_multiplier":             {key: "server.gpu_multiplier", absent: "0"},
	"max_ncpus":                  {key: "server.max_ncpus", absent: "64"},
	"max_wus_in_progress":        {key: "server.max_jobs_in_progress", absent: "0"},
	"max_wus_in_progress_gpu":    {key: "server.max_jobs_in_progress_gpu", absent: "0"},
	"one_result_per_user_per_wu": {key: "server.one_result_per_user_per_wu", flag: true, absent: "false"},
	"one_result_per_host_per_wu": {key: "server.one_result_per_host_per_wu", flag: true, absent: "false"},
	"ignore_delay_bound":         {key: "server.ignore_delay_bound", flag: true, absent: "false"},
	"shmem_work_items":           {key: "server.shmem_work_items", absent: "100"},
}

// ReadConfig reads the server's options from a project's config.xml:
// the --set overrides of the options creditsim models (a tag absent
// takes BOINC's default) and notes saying which came from where.
func ReadConfig(path string) (sets, notes []string, err error) {
	given, err := configTags(path)
	if err != nil {
		return nil, nil, err
	}
	tags := make([]string, 0, len(configOptions))
	for t := range configOptions {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	var from, defaulted, kept []string
	for _, t := range tags {
		o := configOptions[t]
		v, ok := given[t]
		switch {
		case ok && o.flag:
			// A flag is on when present, unless it says 0.
			on := v == "" || v != "0" && !strings.EqualFold(v, "false")
			v = strconv.FormatBool(on)
		case ok:
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, nil, fmt.Errorf("%s: <%s>: %q: want a whole number, 0 or more", path, t, v)
			}
		case o.absent != "":
			v = o.absent
			defaulted = append(defaulted, t)
		default:
			kept = append(kept, t)
			continue
		}
		if ok {
			from = append(from, t)
		}
		sets = append(sets, o.key+"="+v)
	}
	notes = append(notes, fmt.Sprintf("server options from %s: %s", path, listOr(from, "none of the options creditsim models")))
	if len(defaulted) > 0 {
		notes = append(notes, "absent from it, so BOINC's defaults: "+strings.Join(defaulted, ", "))
	}
	if len(kept) > 0 {
		notes = append(notes, "absent from it, so creditsim's defaults (make_project's): "+strings.Join(kept, ", "))
	}
	return sets, notes, nil
}

func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}

// maxConfig is the most of a config.xml read: a project's is a few
// kilobytes.
const maxConfig = 16 << 20

// readConfig reads a config.xml (gzip-compressed or not) under the input
// limits, and refuses one larger than maxConfig.
func readConfig(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in, closeZ, _, err := inputlimit.Open(path, f, inputlimit.Current())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	defer closeZ()
	b, err := io.ReadAll(io.LimitReader(in, maxConfig+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxConfig {
		return nil, fmt.Errorf("%s: larger than %d MiB: not a project's config.xml", path, maxConfig>>20)
	}
	return b, nil
}

// configTags reads the options of config.xml's <config>, by tag.
func configTags(path string) (map[string]string, error) {
	data, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Config struct {
			Items []struct {
				XMLName xml.Name
				Value   string `xml:",chardata"`
			} `xml:",any"`
		} `xml:"config"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	given := map[string]string{}
	for _, it := range doc.Config.Items {
		given[it.XMLName.Local] = strings.TrimSpace(it.Value)
	}
	if len(given) == 0 {
		return nil, fmt.Errorf("%s: no <config> options (want a project's config.xml: <boinc><config>...</config></boinc>)", path)
	}
	return given, nil
}

// CreditFlags are the credit flags of a project's validator daemon
// (config.xml's <daemons>): which credit option it runs, by BOINC's
// precedence (credit_from_wu, then credit_from_runtime, then
// post_assigned_credit; none: CreditNew), and whether it sets
// --max_granted_credit.
type CreditFlags struct {
	Option string // "creditnew", "runtime", "fixed" or "post-assigned"
	Capped bool
	// Found says a validator command was read; without one the option is
	// BOINC's default, CreditNew.
	Found bool
}

// ReadCreditFlags reads the validator's credit flags from config.xml.
func ReadCreditFlags(path string) (CreditFlags, error) {
	b, err := readConfig(path)
	if err != nil {
		return CreditFlags{}, err
	}
	var doc struct {
		Daemons []struct {
			Cmd string `xml:"cmd"`
		} `xml:"daemons>daemon"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		return CreditFlags{}, fmt.Errorf("%s: %v", path, err)
	}
	f := CreditFlags{Option: "creditnew"}
	for _, d := range doc.Daemons {
		args := strings.Fields(d.Cmd)
		if len(args) == 0 || !strings.Contains(args[0], "validator") {
			continue
		}
		f.Found = true
		has := func(flag string) bool {
			for _, a := range args[1:] {
				if strings.TrimLeft(a, "-") == flag {
					return true
				}
			}
			return false
		}
		switch {
		case has("credit_from_wu"):
			f.Option = "fixed"
		case has("credit_from_runtime"):
			f.Option = "runtime"
		case has("post_assigned_credit"):
			f.Option = "post-assigned"
		}
		f.Capped = has("max_granted_credit")
	}
	return f, nil
}
