package app

import "github.com/baton-console/baton/app/sidecar"

// sidecarPath finds the sidecar executable (sidecar.DefaultPath: BATON_SIDECAR, else beside the baton binary).
func sidecarPath() string { return sidecar.DefaultPath() }
