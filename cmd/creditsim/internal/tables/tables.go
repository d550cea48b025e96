package tables

// Host is a row of the host table. SerialNum holds the client's
// version and its GPUs as BOINC's scheduler writes them
// ("[BOINC|8.0.2][CUDA|model|count|memMB|driver|...]"); Misc their JSON
// description (2025-11 on). PGPUFpops is the peak FLOPS of all the
// host's GPUs together (BOINC sums each coprocessor's peak).
type Host struct {
	ID              int64   `db:"id,key"`
	UserID          int64   `db:"userid"`
	CreateTime      int64   `db:"create_time"`
	RPCTime         int64   `db:"rpc_time,need"`
	TotalCredit     float64 `db:"total_credit"`
	ExpavgCredit    float64 `db:"expavg_credit"`
	ExpavgTime      float64 `db:"expavg_time"`
	OnFrac          float64 `db:"on_frac"`
	ConnectedFrac   float64 `db:"connected_frac"`
	ActiveFrac      float64 `db:"active_frac"`
	GPUActiveFrac   float64 `db:"gpu_active_frac"`
	NCPUs           int64   `db:"p_ncpus"`
	PFpops          float64 `db:"p_fpops"`
	PIops           float64 `db:"p_iops"`
	NGPUs           int64   `db:"p_ngpus"`
	PGPUFpops       float64 `db:"p_gpu_fpops"`
	OSName          string  `db:"os_name"`
	SerialNum       string  `db:"serialnum"`
	ErrorRate       float64 `db:"error_rate"`
	MaxResultsDay   int64   `db:"max_results_day"`
	CreditPerCPUSec float64 `db:"credit_per_cpu_sec"`
	Misc            string  `db:"misc"`
}

// Result is a row of the result table, with BOINC's codes: ServerState
// 2 unsent, 4 in progress, 5 over; Outcome 1 success, 3 client error,
// 4 no reply, 6 validate error, 7 client detached; ValidateState 0
// init, 1 valid, 2 invalid, 3 no check, 4 inconclusive, 5 too late.
type Result struct {
	ID             int64   `db:"id,key"`
	CreateTime     int64   `db:"create_time"`
	WorkunitID     int64   `db:"workunitid,need"`
	ServerState    int64   `db:"server_state,need"`
	Outcome        int64   `db:"outcome,need"`
	ClientState    int64   `db:"client_state"`
	HostID         int64   `db:"hostid"`
	UserID         int64   `db:"userid"`
	ReportDeadline int64   `db:"report_deadline"`
	SentTime       int64   `db:"sent_time,need"`
	ReceivedTime   int64   `db:"received_time"`
	Name           string  `db:"name"`
	CPUTime        float64 `db:"cpu_time"`
	ValidateState  int64   `db:"validate_state,need"`
	ClaimedCredit  float64 `db:"claimed_credit"`
	GrantedCredit  float64 `db:"granted_credit"`
	AppID          int64   `db:"appid,need"`
	ExitStatus     int64   `db:"exit_status"`
	TeamID         int64   `db:"teamid"`
	ElapsedTime    float64 `db:"elapsed_time,need"`
	FlopsEstimate  float64 `db:"flops_estimate,need"`
	AppVersionID   int64   `db:"app_version_id,need"`
	RuntimeOutlier int64   `db:"runtime_outlier"`
	SizeClass      int64   `db:"size_class"`
}

// BOINC's result codes that creditsim reads.
const (
	ServerOver = 5

	OutcomeSuccess        = 1
	OutcomeClientError    = 3
	OutcomeNoReply        = 4
	OutcomeValidateError  = 6
	OutcomeClientDetached = 7

	// ExitAbortedViaGUI is the exit status of a result its volunteer
	// aborted (EXIT_ABORTED_VIA_GUI, lib/error_numbers.h); BOINC's
	// transitioner does not count it towards max_error_results.
	ExitAbortedViaGUI = 203

	ValidateInit    = 0
	ValidateValid   = 1
	ValidateInvalid = 2
)

// Workunit is a row of the workunit table.
type Workunit struct {
	ID                int64   `db:"id,key"`
	CreateTime        int64   `db:"create_time,need"`
	AppID             int64   `db:"appid,need"`
	Name              string  `db:"name"`
	RscFpopsEst       float64 `db:"rsc_fpops_est,need"`
	RscFpopsBound     float64 `db:"rsc_fpops_bound"`
	CanonicalResultID int64   `db:"canonical_resultid"`
	CanonicalCredit   float64 `db:"canonical_credit"`
	DelayBound        int64   `db:"delay_bound"`
	MinQuorum         int64   `db:"min_quorum"`
	TargetNResults    int64   `db:"target_nresults"`
	MaxErrorResults   int64   `db:"max_error_results"`
	MaxTotalResults   int64   `db:"max_total_results"`
	MaxSuccessResults int64   `db:"max_success_results"`
	AppVersionID      int64   `db:"app_version_id"`
	SizeClass         int64   `db:"size_class"`
}

// App is a row of the app table.
type App struct {
	ID              int64   `db:"id,key"`
	Name            string  `db:"name,need"`
	MinAvgPFC       float64 `db:"min_avg_pfc"`
	HostScaleCheck  int64   `db:"host_scale_check"`
	TargetNResults  int64   `db:"target_nresults"`
	NonCPUIntensive int64   `db:"non_cpu_intensive"`
	NSizeClasses    int64   `db:"n_size_classes"`
}

// AppVersion is a row of the app_version table.
type AppVersion struct {
	ID           int64   `db:"id,key"`
	AppID        int64   `db:"appid,need"`
	VersionNum   int64   `db:"version_num"`
	PlatformID   int64   `db:"platformid,need"`
	PlanClass    string  `db:"plan_class,need"`
	PFCN         float64 `db:"pfc_n"`
	PFCAvg       float64 `db:"pfc_avg"`
	PFCScale     float64 `db:"pfc_scale"`
	ExpavgCredit float64 `db:"expavg_credit"`
	ExpavgTime   float64 `db:"expavg_time"`
	Deprecated   int64   `db:"deprecated"`
	Beta         int64   `db:"beta"`
}

// Platform is a row of the platform table.
type Platform struct {
	ID   int64  `db:"id,key"`
	Name string `db:"name,need"`
}

// User is a row of the user table.
type User struct {
	ID           int64   `db:"id,key"`
	CreateTime   int64   `db:"create_time"`
	TeamID       int64   `db:"teamid"`
	TotalCredit  float64 `db:"total_credit"`
	ExpavgCredit float64 `db:"expavg_credit"`
	ExpavgTime   float64 `db:"expavg_time"`
}

// Team is a row of the team table.
type Team struct {
	ID           int64   `db:"id,key"`
	CreateTime   int64   `db:"create_time"`
	Name         string  `db:"name"`
	TotalCredit  float64 `db:"total_credit"`
	ExpavgCredit float64 `db:"expavg_credit"`
	ExpavgTime   float64 `db:"expavg_time"`
}

// HostAppVersion is a row of the host_app_version table.
type HostAppVersion struct {
	HostID           int64   `db:"host_id"`
	AppVersionID     int64   `db:"app_version_id"`
	PFCN             float64 `db:"pfc_n"`
	PFCAvg           float64 `db:"pfc_avg"`
	EtN              float64 `db:"et_n"`
	EtAvg            float64 `db:"et_avg"`
	EtVar            float64 `db:"et_var"`
	EtQ              float64 `db:"et_q"`
	MaxJobsPerDay    int64   `db:"max_jobs_per_day"`
	NJobsToday       int64   `db:"n_jobs_today"`
	TurnaroundN      float64 `db:"turnaround_n"`
	TurnaroundAvg    float64 `db:"turnaround_avg"`
	ConsecutiveValid int64   `db:"consecutive_valid"`
}

// Set is a project's tables, all but result, which is read row by row
// (a project's results outnumber its other rows by far).
type Set struct {
	Hosts           []Host
	Workunits       []Workunit
	Apps            []App
	AppVersions     []AppVersion
	Platforms       []Platform
	Users           []User
	Teams           []Team
	HostAppVersions []HostAppVersion
	// Has names the columns each table had (nil: no such table).
	Has map[string]map[string]bool
	// Dropped are the rows each table had that Read left out for their
	// identity (absent: none).
	Dropped map[string]Dropped
}

// Names are the tables in the order they are written and loaded.
var Names = []string{"platform", "app", "app_version", "team", "user", "host", "host_app_version", "workunit", "result"}
