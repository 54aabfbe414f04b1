// Package gen draws a random, valid scenario from a seed: the generator
// that sweeps (package fuzz), comparisons of generated seeds (package
// compare) and the command's scenario listing share.
package gen
