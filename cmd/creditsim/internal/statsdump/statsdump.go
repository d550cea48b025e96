package statsdump

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/internal/inputlimit"
)

// Host is one row of the export.
type Host struct {
	ID, UserID  int // UserID 0: the user hides their hosts
	TotalCredit float64
	OSName      string
	CreateTime  float64 // Unix seconds
	RPCTime     float64 // last scheduler contact, Unix seconds
	NCPUs       int
	PFpops      float64 // Whetstone FLOPS per CPU
	PIops       float64 // Dhrystone per CPU
	GPUs        []GPU
}

// GPU is one kind of GPU a host has: its vendor as BOINC names it
// (nvidia, amd, intel, apple), its model and how many.
type GPU struct {
	Vendor, Model string
	Count         int
}

// xmlHost is a <host> element as db_dump writes it.
type xmlHost struct {
	ID          int     `xml:"id"`
	UserID      int     `xml:"userid"`
	TotalCredit float64 `xml:"total_credit"`
	OSName      string  `xml:"os_name"`
	Misc        string  `xml:"misc"`
	Coprocs     string  `xml:"coprocs"`
	CreateTime  float64 `xml:"create_time"`
	RPCTime     float64 `xml:"rpc_time"`
	NCPUs       int     `xml:"ncpus"`
	PFpops      float64 `xml:"p_fpops"`
	PIops       float64 `xml:"p_iops"`
}

// Read reads the hosts of an export from path (gzip-compressed or not).
func Read(path string) ([]Host, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	hosts, err := read(path, f)
	if errors.Is(err, inputlimit.ErrLimit) {
		return nil, err // it names the file
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return hosts, nil
}

func read(file string, r io.Reader) ([]Host, error) {
	dec, closeZ, err := decoder(file, r)
	if err != nil {
		return nil, err
	}
	defer closeZ()
	var out []Host
	root, err := elements(dec, "hosts", "host", func(se *xml.StartElement, line int) error {
		var x xmlHost
		if err := dec.DecodeElement(&x, se); errors.Is(err, inputlimit.ErrLimit) {
			return err
		} else if err != nil {
			return fmt.Errorf("line %d: host %d: not db_dump's host XML: %v", line, len(out)+1, err)
		}
		h, err := x.host()
		if err != nil {
			return fmt.Errorf("line %d: host %d: %v", line, x.ID, err)
		}
		out = append(out, h)
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case !root:
		return nil, errors.New("no <hosts> element: not the host table of a statistics export (host.gz)")
	case len(out) == 0:
		return nil, errors.New("no <host> in the export")
	}
	return out, nil
}

// elements calls f with each element named elem (and the line it starts
// on) and reports whether an element named root was seen: the tables of
// db_dump's export are <root><elem>...</elem>...</root>.
func elements(dec *xml.Decoder, root, elem string, f func(se *xml.StartElement, line int) error) (bool, error) {
	sawRoot := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return sawRoot, nil
		}
		if errors.Is(err, inputlimit.ErrLimit) {
			return sawRoot, err
		}
		if err != nil {
			line, _ := dec.InputPos()
			return sawRoot, fmt.Errorf("line %d: not db_dump's %s XML: %v", line, elem, err)
		}
		se, ok := tok.(xml.StartElement)
		switch {
		case !ok:
		case se.Name.Local == root:
			sawRoot = true
		case se.Name.Local == elem:
			line, _ := dec.InputPos()
			if err := f(&se, line); err != nil {
				return sawRoot, err
			}
		}
	}
}

// decoder is an XML decoder of file's r, gunzipped if it starts with
// gzip's magic number, read under the input limits; closeZ closes the
// gzip reader.
func decoder(file string, r io.Reader) (dec *xml.Decoder, closeZ func() error, err error) {
	in, closeZ, _, err := inputlimit.Open(file, r, inputlimit.Current())
	if err != nil {
		return nil, nil, err
	}
	return xml.NewDecoder(bufio.NewReaderSize(in, 1<<16)), closeZ, nil
}

// host checks a row and reads its GPUs.
func (x *xmlHost) host() (Host, error) {
	h := Host{ID: x.ID, UserID: x.UserID, TotalCredit: x.TotalCredit, OSName: x.OSName, CreateTime: x.CreateTime,
		RPCTime: x.RPCTime, NCPUs: x.NCPUs, PFpops: x.PFpops, PIops: x.PIops}
	switch {
	case x.CreateTime <= 0:
		return h, errors.New("no create_time: the export was made without <detail/>, which fit needs")
	case x.RPCTime < x.CreateTime:
		return h, fmt.Errorf("rpc_time %.0f before create_time %.0f", x.RPCTime, x.CreateTime)
	case x.NCPUs < 0 || x.PFpops < 0 || x.PIops < 0:
		return h, fmt.Errorf("negative ncpus, p_fpops or p_iops (%d, %g, %g)", x.NCPUs, x.PFpops, x.PIops)
	}
	var err error
	h.GPUs, err = GPUs(x.Misc, x.Coprocs)
	return h, err
}

// GPUs reads a host's GPUs from its misc JSON (2025-11 on) or, without
// one, from the coprocessor summary ("[CUDA|model|count|...]", as
// db_dump's <coprocs> and the host table's serialnum hold it).
func GPUs(misc, coprocs string) ([]GPU, error) {
	if strings.TrimSpace(misc) != "" {
		return miscGPUs(misc)
	}
	if coprocs != "" {
		return coprocGPUs(coprocs)
	}
	return nil, nil
}

// miscGPUs reads the GPUs of host.misc's JSON (2025-11 on).
func miscGPUs(s string) ([]GPU, error) {
	var m struct {
		GPUs []struct {
			Type, Model string
			Count       int
		} `json:"gpus"`
	}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, fmt.Errorf("misc: not JSON: %v", err)
	}
	var out []GPU
	for _, g := range m.GPUs {
		if g.Count > 0 {
			out = append(out, GPU{Vendor: strings.ToLower(g.Type), Model: g.Model, Count: g.Count})
		}
	}
	return out, nil
}

// coprocVendors maps the old summary's tags to BOINC's vendor names.
var coprocVendors = map[string]string{"CUDA": "nvidia", "CAL": "amd", "INTEL": "intel", "apple_gpu": "apple"}

// coprocGPUs reads the GPUs of the old <coprocs> summary:
// [CUDA|model|count|memMB|driver|opencl][CAL|...]... (before 2025-11).
func coprocGPUs(s string) ([]GPU, error) {
	var out []GPU
	for _, part := range strings.Split(s, "[") {
		part = strings.TrimSuffix(strings.TrimSpace(part), "]")
		if part == "" {
			continue
		}
		f := strings.Split(part, "|")
		vendor, ok := coprocVendors[f[0]]
		if !ok || len(f) < 3 {
			continue // another OpenCL device, or not a GPU summary
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("coprocs %q: count %q is not a number", part, f[2])
		}
		if n > 0 {
			out = append(out, GPU{Vendor: vendor, Model: f[1], Count: n})
		}
	}
	return out, nil
}

// Write writes hosts as db_dump writes host.gz with <detail/> (the
// fields fit reads; GPUs in the misc JSON), gzip-compressed.
func Write(w io.Writer, hosts []Host) error {
	gz := gzip.NewWriter(w)
	var b bytes.Buffer
	b.WriteString("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<hosts>\n")
	for i := range hosts {
		writeHost(&b, &hosts[i])
		if b.Len() > 1<<20 {
			if _, err := gz.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	b.WriteString("</hosts>\n")
	if _, err := gz.Write(b.Bytes()); err != nil {
		return err
	}
	return gz.Close()
}

func writeHost(b *bytes.Buffer, h *Host) {
	var esc bytes.Buffer
	xml.EscapeText(&esc, []byte(h.OSName))
	misc := ""
	if len(h.GPUs) > 0 {
		var parts []string
		for _, g := range h.GPUs {
			model, _ := json.Marshal(g.Model)
			parts = append(parts, fmt.Sprintf("{\"type\": %q, \"model\": %s, \"count\": %d}", g.Vendor, model, g.Count))
		}
		misc = "{\"gpus\": [" + strings.Join(parts, ", ") + "]}"
	}
	fmt.Fprintf(b, "<host>\n    <id>%d</id>\n", h.ID)
	if h.UserID != 0 {
		fmt.Fprintf(b, "    <userid>%d</userid>\n", h.UserID)
	}
	fmt.Fprintf(b, "    <total_credit>%f</total_credit>\n    <os_name>%s</os_name>\n    <misc><![CDATA[%s]]></misc>\n", h.TotalCredit, esc.String(), misc)
	fmt.Fprintf(b, "  <create_time>%d</create_time>\n  <rpc_time>%d</rpc_time>\n  <ncpus>%d</ncpus>\n  <p_fpops>%f</p_fpops>\n  <p_iops>%f</p_iops>\n</host>\n",
		int64(h.CreateTime), int64(h.RPCTime), h.NCPUs, h.PFpops, h.PIops)
}

// User is one row of the export's user table (user.gz): its team, 0
// for none.
type User struct {
	ID, TeamID int
}

// ReadUsers reads the users of an export's user table from path
// (gzip-compressed or not): db_dump's write_user, <users><user>...
func ReadUsers(path string) ([]User, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec, closeZ, err := decoder(path, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	defer closeZ()
	var out []User
	root, err := elements(dec, "users", "user", func(se *xml.StartElement, line int) error {
		var x struct {
			ID     int `xml:"id"`
			TeamID int `xml:"teamid"`
		}
		if err := dec.DecodeElement(&x, se); errors.Is(err, inputlimit.ErrLimit) {
			return err
		} else if err != nil {
			return fmt.Errorf("line %d: user %d: not db_dump's user XML: %v", line, len(out)+1, err)
		}
		out = append(out, User{ID: x.ID, TeamID: x.TeamID})
		return nil
	})
	if err != nil {
		if errors.Is(err, inputlimit.ErrLimit) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if !root {
		return nil, fmt.Errorf("%s: no <users> element: not the user table of a statistics export (user.gz)", path)
	}
	return out, nil
}

// WriteUsers writes users as db_dump writes user.gz (the fields fit
// reads), gzip-compressed.
func WriteUsers(w io.Writer, users []User) error {
	gz := gzip.NewWriter(w)
	b := bufio.NewWriter(gz)
	b.WriteString("<users>\n")
	for _, u := range users {
		fmt.Fprintf(b, "<user>\n <id>%d</id>\n <name>user %d</name>\n", u.ID, u.ID)
		if u.TeamID != 0 {
			fmt.Fprintf(b, " <teamid>%d</teamid>\n", u.TeamID)
		}
		b.WriteString("</user>\n")
	}
	b.WriteString("</users>\n")
	if err := b.Flush(); err != nil {
		return err
	}
	return gz.Close()
}
