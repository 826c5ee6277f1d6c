package community

import "reflect"

// countingRules is Spec with every function field wrapped so that its
// calls are counted, by field name.
func countingRules() (*Rules, map[string]*int) {
	r := Spec()
	v := reflect.ValueOf(r).Elem()
	calls := map[string]*int{}
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() != reflect.Func {
			continue
		}
		n := new(int)
		calls[v.Type().Field(i).Name] = n
		inner := reflect.ValueOf(f.Interface())
		f.Set(reflect.MakeFunc(f.Type(), func(args []reflect.Value) []reflect.Value {
			*n++
			return inner.Call(args)
		}))
	}
	return r, calls
}
