// Package all links every credit system into a program: importing it
// registers each kind and preset with package policy, so a command (or a
// test) names one import instead of one per system.
//
// Imports (layer 4): policy/fromruntime, policy/fromwu, policy/postassigned, policy/sciunited, policy/v1peak, policy/v2actual, policy/v3pfc.
package all
