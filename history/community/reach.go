package community

import (
	"reflect"
	"sort"
	"sync"
)

// Counting wraps every function field of r so that its calls are counted
// by field name: exploring a universe under it tells which decisions the
// universe reaches. The wrapped rules decide exactly as r does. The engine
// calls them from several workers, so the counts are kept under a lock;
// read them once the exploration has returned.
func Counting(r *Rules) (*Rules, map[string]*int) {
	c := r.Clone()
	var mu sync.Mutex
	v := reflect.ValueOf(c).Elem()
	calls := map[string]*int{}
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() != reflect.Func || f.IsNil() {
			continue
		}
		n := new(int)
		calls[v.Type().Field(i).Name] = n
		inner := reflect.ValueOf(f.Interface())
		f.Set(reflect.MakeFunc(f.Type(), func(args []reflect.Value) []reflect.Value {
			mu.Lock()
			*n++
			mu.Unlock()
			return inner.Call(args)
		}))
	}
	return c, calls
}

// Changed lists, sorted, the function fields of r that are not the ones
// base holds (by code pointer): the decisions a variant replaced.
func Changed(base, r *Rules) []string {
	bv, rv := reflect.ValueOf(base).Elem(), reflect.ValueOf(r).Elem()
	var out []string
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Field(i)
		if f.Kind() == reflect.Func && f.Pointer() != bv.Field(i).Pointer() {
			out = append(out, rv.Type().Field(i).Name)
		}
	}
	sort.Strings(out)
	return out
}

// Reached lists, sorted, the fields called at least once in calls.
func Reached(calls map[string]*int) []string {
	var out []string
	for name, n := range calls {
		if *n > 0 {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
