package dataio

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/loadlab/loadlab"
)

// MarshalJSON encodes any loadlab value — a result, a sweep, an estimate,
// a trajectory — as JSON with stable field names: a struct becomes an
// object keyed by its exported field names (or json tags, which loadlab
// types use where a name should differ from the Go one), keys sorted, so
// the encoding of a type changes only when its fields do. Unlike
// encoding/json, it accepts the non-finite floats that results hold (an
// unstable ρ = +Inf, an interval of one run = NaN) and writes them as
// null. Unexported state (the storage of a wgraph.Graph, a random
// source) is not written. A pointer whose type has its own MarshalJSON (a *wgraph.Graph, written
// as its edge list) uses it. Integer enumerations with a String method (loadlab.Status,
// consensus.Traffic, …) are written by name. It returns an error wrapping
// loadlab.ErrInvalid for values JSON cannot hold (channels, functions,
// complex numbers), for values nested deeper than 64 levels, and for two
// fields or map keys that would get the same JSON key (a json tag that
// repeats another field's name, map keys whose printed forms coincide).
func MarshalJSON(v any) ([]byte, error) {
	tree, err := finite(reflect.ValueOf(v), 0)
	if err != nil {
		return nil, err
	}
	return json.Marshal(tree)
}

const maxDepth = 64

// finite converts v to a tree of maps, slices and finite scalars.
func finite(v reflect.Value, depth int) (any, error) {
	if depth > maxDepth {
		return nil, loadlab.Invalid("dataio", "MarshalJSON: value nested deeper than %d levels", maxDepth)
	}
	switch v.Kind() {
	case reflect.Invalid:
		return nil, nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		if m, ok := v.Interface().(json.Marshaler); ok {
			b, err := m.MarshalJSON()
			return json.RawMessage(b), err
		}
		return finite(v.Elem(), depth+1)
	case reflect.Struct:
		return object(v, depth)
	case reflect.Slice, reflect.Array:
		return list(v, depth)
	case reflect.Map:
		return dict(v, depth)
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, nil
		}
		return nil, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		// Enumerations (loadlab.Status, consensus.Traffic, …) are
		// written by name, which is what a reader of the file needs.
		if s, ok := v.Interface().(fmt.Stringer); ok {
			return s.String(), nil
		}
		return v.Interface(), nil
	case reflect.Bool, reflect.String:
		return v.Interface(), nil
	}
	return nil, loadlab.Invalid("dataio", "MarshalJSON: a %v cannot be written as JSON", v.Type())
}

func object(v reflect.Value, depth int) (any, error) {
	out := make(map[string]any, v.NumField())
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fv := v.Field(i)
		if strings.Contains(opts, "omitempty") && fv.IsZero() {
			continue
		}
		x, err := finite(fv, depth+1)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", f.Name, err)
		}
		if _, dup := out[name]; dup {
			return nil, loadlab.Invalid("dataio", "MarshalJSON: %v.%s: JSON key %q is already taken by another field", v.Type(), f.Name, name)
		}
		out[name] = x
	}
	return out, nil
}

func list(v reflect.Value, depth int) (any, error) {
	if v.Kind() == reflect.Slice && v.IsNil() {
		return nil, nil
	}
	out := make([]any, v.Len())
	for i := range out {
		x, err := finite(v.Index(i), depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

func dict(v reflect.Value, depth int) (any, error) {
	if v.IsNil() {
		return nil, nil
	}
	out := make(map[string]any, v.Len())
	it := v.MapRange()
	for it.Next() {
		x, err := finite(it.Value(), depth+1)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprint(it.Key().Interface())
		if _, dup := out[key]; dup {
			return nil, loadlab.Invalid("dataio", "MarshalJSON: %v: two map keys print as %q", v.Type(), key)
		}
		out[key] = x
	}
	return out, nil
}
