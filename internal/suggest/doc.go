// Package suggest finds the name a user most likely meant.
//
// Imports (layer 0): none.
package suggest
