package tables

import (
	"fmt"
	"reflect"
)

// Dropped counts the rows of one table that Read left out for their
// identity: no ID (0 or NULL; BOINC's IDs start at 1) or an ID already
// read (a SELECT run twice into one file, a join that repeats rows).
// Each ID is counted once, its first row kept.
type Dropped struct {
	NoID, Duplicate int64
	FirstDuplicate  string // the first repeated key, as "id 17"
}

// Any reports whether rows were left out.
func (d Dropped) Any() bool { return d.NoID > 0 || d.Duplicate > 0 }

// String says what was left out, for a fit's warnings.
func (d Dropped) String() string {
	s := ""
	if d.NoID > 0 {
		s = fmt.Sprintf("%d rows with no ID (0 or NULL) left out", d.NoID)
	}
	if d.Duplicate > 0 {
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("%d rows repeating an ID already read (the first: %s) counted once", d.Duplicate, d.FirstDuplicate)
	}
	return s
}

// identities remembers the keys of one table's rows read so far.
type identities struct {
	c     *codec
	k     []int // the row type's fields of the key
	seen  pagedSet
	pairs map[[2]int64]bool
	drop  Dropped
}

func newIdentities(table string) *identities {
	c := codecs[table]
	id := &identities{c: c}
	for _, name := range c.key {
		id.k = append(id.k, c.fields[c.byName[name]])
	}
	if len(id.k) == 2 {
		id.pairs = map[[2]int64]bool{}
	}
	return id
}

// keep reports whether row (a pointer to the table's row type) is the
// first with its key, counting the rows it drops.
func (id *identities) keep(row any) bool {
	v := reflect.ValueOf(row).Elem()
	a := v.Field(id.k[0]).Int()
	if id.pairs != nil {
		b := v.Field(id.k[1]).Int()
		if a <= 0 || b <= 0 {
			id.drop.NoID++
			return false
		}
		if id.pairs[[2]int64{a, b}] {
			id.dup(fmt.Sprintf("%s %d, %s %d", id.c.key[0], a, id.c.key[1], b))
			return false
		}
		id.pairs[[2]int64{a, b}] = true
		return true
	}
	if a <= 0 {
		id.drop.NoID++
		return false
	}
	if !id.seen.add(a) {
		id.dup(fmt.Sprintf("id %d", a))
		return false
	}
	return true
}

func (id *identities) dup(key string) {
	if id.drop.Duplicate == 0 {
		id.drop.FirstDuplicate = key
	}
	id.drop.Duplicate++
}

// pagedSet is a set of positive integers as bits in pages of 4,096:
// a project's IDs are dense (auto-increment), so 100 million results
// take about 12 MB, where a map would take gigabytes.
type pagedSet map[int64]*[64]uint64

// add adds x and reports whether it was new.
func (s *pagedSet) add(x int64) bool {
	if *s == nil {
		*s = pagedSet{}
	}
	p := (*s)[x>>12]
	if p == nil {
		p = new([64]uint64)
		(*s)[x>>12] = p
	}
	w, bit := (x>>6)&63, uint64(1)<<(x&63)
	if p[w]&bit != 0 {
		return false
	}
	p[w] |= bit
	return true
}
