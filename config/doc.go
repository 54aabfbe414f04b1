// Package config is how a package says which setting of its Config is
// wrong: errors that name the field, which a command renames to the flag
// that sets it.
package config
