package tables

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// codec maps a table's columns to its row type's fields by their db tags.
type codec struct {
	table  string
	typ    reflect.Type
	names  []string // the columns, in the struct's order
	fields []int    // the struct field of each column
	key    []string // the columns a file must have
	need   []string // the other columns a fit cannot do without
	byName map[string]int
}

// rowTypes are each table's row type.
var rowTypes = map[string]reflect.Type{
	"host": reflect.TypeFor[Host](), "result": reflect.TypeFor[Result](), "workunit": reflect.TypeFor[Workunit](),
	"app": reflect.TypeFor[App](), "app_version": reflect.TypeFor[AppVersion](), "platform": reflect.TypeFor[Platform](),
	"user": reflect.TypeFor[User](), "team": reflect.TypeFor[Team](), "host_app_version": reflect.TypeFor[HostAppVersion](),
}

var codecs = func() map[string]*codec {
	m := map[string]*codec{}
	for table, t := range rowTypes {
		c := &codec{table: table, typ: t, byName: map[string]int{}}
		for i := 0; i < t.NumField(); i++ {
			tag := t.Field(i).Tag.Get("db")
			name, opt, _ := strings.Cut(tag, ",")
			c.byName[name] = len(c.names)
			c.names = append(c.names, name)
			c.fields = append(c.fields, i)
			switch opt {
			case "key":
				c.key = append(c.key, name)
			case "need":
				c.need = append(c.need, name)
			}
		}
		if table == "host_app_version" {
			c.key = []string{"host_id", "app_version_id"}
		}
		m[table] = c
	}
	return m
}()

// missing is the first column of c's keys and needs that has lacks, and
// why a file must have it; "" if none.
func (c *codec) missing(has map[string]bool) (col, why string) {
	for _, k := range c.key {
		if !has[k] {
			return k, "each row's identity"
		}
	}
	for _, k := range c.need {
		if !has[k] {
			return k, "a fit cannot do without it: " + needs[c.table+"."+k]
		}
	}
	return "", ""
}

// needs says what a fit reads each needed column for.
var needs = map[string]string{
	"host.rpc_time":          "the window ends at the hosts' last contact",
	"workunit.appid":         "each workunit's app",
	"workunit.create_time":   "which workunits the window holds",
	"workunit.rsc_fpops_est": "each job's estimated size, which every efficiency and credit is read against",
	"result.workunitid":      "each result's workunit",
	"result.appid":           "each result's app",
	"result.server_state":    "which results were sent and are over",
	"result.outcome":         "which results succeeded",
	"result.validate_state":  "which results were valid",
	"result.sent_time":       "which results the window holds",
	"result.elapsed_time":    "each version's efficiency, rsc_fpops_est / (elapsed_time x flops_estimate)",
	"result.flops_estimate":  "each version's efficiency, rsc_fpops_est / (elapsed_time x flops_estimate)",
	"app.name":               "the apps' names, by which the scenario and --app name them",
	"result.app_version_id":  "which version ran each result, without which CPU and GPU results are one version",
	"app_version.appid":      "each version's app",
	"app_version.platformid": "each version's platform",
	"app_version.plan_class": "each version's plan class, which says CPU or GPU and multi-threaded",
	"platform.name":          "the versions' platform names",
}

// Columns lists a table's columns as creditsim reads and writes them.
func Columns(table string) []string { return append([]string(nil), codecs[table].names...) }

// appendValue appends the field of column k of row v in the text form
// both MySQL's LOAD DATA and creditsim read: integers, floats in the
// shortest form that reads back exactly (a non-finite one, which no
// column should hold, as NULL), strings as they are (escaped by the
// caller's form).
func (c *codec) appendValue(b []byte, v reflect.Value, k int) (out []byte, null bool) {
	f := v.Field(c.fields[k])
	switch f.Kind() {
	case reflect.Int64:
		return strconv.AppendInt(b, f.Int(), 10), false
	case reflect.Float64:
		x := f.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return b, true
		}
		return strconv.AppendFloat(b, x, 'g', -1, 64), false
	default:
		return append(b, f.String()...), false
	}
}

// setValue parses s into the field of column k of row v; "" (a NULL)
// is zero.
func (c *codec) setValue(v reflect.Value, k int, s string) error {
	f := v.Field(c.fields[k])
	switch f.Kind() {
	case reflect.Int64:
		if s == "" {
			f.SetInt(0)
			return nil
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			// A double column read into a whole one (a schema that stores
			// times as doubles) keeps its whole part.
			x, ferr := strconv.ParseFloat(s, 64)
			if ferr != nil || math.IsNaN(x) || math.Abs(x) >= 9.2e18 {
				return fmt.Errorf("want a whole number")
			}
			n = int64(x)
		}
		f.SetInt(n)
	case reflect.Float64:
		if s == "" {
			f.SetFloat(0)
			return nil
		}
		x, err := strconv.ParseFloat(s, 64)
		if ne, ok := err.(*strconv.NumError); ok && ne.Err != strconv.ErrRange {
			return fmt.Errorf("want a number")
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("want a finite number")
		}
		f.SetFloat(x)
	default:
		f.SetString(s)
	}
	return nil
}
