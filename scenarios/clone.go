package scenarios

import "reflect"

// Clone returns a deep copy of s: changing it, down to its events' brokers
// and its segments, leaves s as it was.
func (s *Scenario) Clone() *Scenario {
	c := new(Scenario)
	deepCopy(reflect.ValueOf(c).Elem(), reflect.ValueOf(s).Elem())
	return c
}

// deepCopy copies src into dst, which holds the zero value of src's type,
// sharing no pointer, slice or map with it; a nil slice stays nil and an
// empty one empty (Marshal tells them apart).
func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if !src.IsNil() {
			dst.Set(reflect.New(src.Elem().Type()))
			deepCopy(dst.Elem(), src.Elem())
		}
	case reflect.Slice:
		if !src.IsNil() {
			dst.Set(reflect.MakeSlice(src.Type(), src.Len(), src.Len()))
			for i := range src.Len() {
				deepCopy(dst.Index(i), src.Index(i))
			}
		}
	case reflect.Array:
		for i := range src.Len() {
			deepCopy(dst.Index(i), src.Index(i))
		}
	case reflect.Struct:
		for i := range src.NumField() {
			deepCopy(dst.Field(i), src.Field(i))
		}
	case reflect.Map:
		if !src.IsNil() {
			dst.Set(reflect.MakeMapWithSize(src.Type(), src.Len()))
			for it := src.MapRange(); it.Next(); {
				v := reflect.New(it.Value().Type()).Elem()
				deepCopy(v, it.Value())
				dst.SetMapIndex(it.Key(), v)
			}
		}
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		panic("scenarios: Clone cannot copy a " + src.Kind().String() + " field")
	default:
		dst.Set(src)
	}
}
