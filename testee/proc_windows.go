//go:build windows

package testee

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows there are no process groups to signal and no child subreaper:
// the testee runs in a Job Object of its own, and every process it starts
// is in that job too (the job allows no breakaway), whatever it does with
// its console, process group or parent. Killing the testee terminates the
// job: the testee and all it started, at once. The job is made with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, so that when conform itself ends,
// however it ends (killed from the Task Manager too), Windows closes its
// handle to the job and terminates what is in it.
//
// The testee is started suspended, put in its job, then resumed, so that
// nothing it starts can run outside the job. It is started in a new
// process group (CREATE_NEW_PROCESS_GROUP), as on Unix: the Ctrl-C typed
// at conform's console is conform's to handle (it stops the run, then ends
// the testee), not the testee's.
//
// Its standard streams are named pipes whose ends on conform's side are
// opened for overlapped I/O, so that reads and writes take deadlines as on
// Unix (os.Pipe gives synchronous pipes on Windows, which take none).

// procSys holds the testee's Job Object.
type procSys struct {
	mu  sync.Mutex
	job windows.Handle // 0 once released
}

func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP}
}

var pipeSeq atomic.Uint64

// newPipe makes a pipe whose end ours, conform's, is opened for overlapped
// I/O (and so takes deadlines) and reads (weRead) or writes; theirs is the
// testee's, synchronous, as a program expects of its standard streams.
func newPipe(weRead bool) (ours, theirs *os.File, err error) {
	name := `\\.\pipe\conform-` + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(pipeSeq.Add(1), 10) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	name16, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, nil, err
	}
	access, theirAccess := uint32(windows.PIPE_ACCESS_OUTBOUND), uint32(windows.GENERIC_READ|windows.FILE_WRITE_ATTRIBUTES)
	if weRead {
		access, theirAccess = windows.PIPE_ACCESS_INBOUND, windows.GENERIC_WRITE|windows.FILE_READ_ATTRIBUTES
	}
	const buf = 64 << 10
	h, err := windows.CreateNamedPipe(name16,
		access|windows.FILE_FLAG_OVERLAPPED|windows.FILE_FLAG_FIRST_PIPE_INSTANCE,
		windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		1, buf, buf, 0, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("creating a pipe: %w", err)
	}
	t, err := windows.CreateFile(name16, theirAccess, 0, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		windows.CloseHandle(h)
		return nil, nil, fmt.Errorf("opening a pipe: %w", err)
	}
	if err := connectPipe(h); err != nil {
		windows.CloseHandle(h)
		windows.CloseHandle(t)
		return nil, nil, fmt.Errorf("connecting a pipe: %w", err)
	}
	// os.NewFile finds the handle overlapped and gives it to the runtime's
	// poller: deadlines work on it.
	return os.NewFile(uintptr(h), name), os.NewFile(uintptr(t), name), nil
}

// connectPipe completes the connection of the server end h, whose client
// end is already open (ERROR_PIPE_CONNECTED).
func connectPipe(h windows.Handle) error {
	ev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(ev)
	ov := windows.Overlapped{HEvent: ev}
	err = windows.ConnectNamedPipe(h, &ov)
	switch {
	case err == nil, errors.Is(err, windows.ERROR_PIPE_CONNECTED):
		return nil
	case errors.Is(err, windows.ERROR_IO_PENDING):
		var n uint32
		return windows.GetOverlappedResult(h, &ov, &n, true)
	}
	return err
}

// attach puts the suspended testee in a new Job Object and resumes it.
func (p *proc) attach() error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("setting up the job object: %w", err)
	}
	ph, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.pid))
	if err == nil {
		err = windows.AssignProcessToJobObject(job, ph)
		windows.CloseHandle(ph)
	}
	if err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("putting the testee in a job object: %w", err)
	}
	p.sys.job = job
	if err := resume(p.pid); err != nil {
		p.kill()
		p.release()
		return fmt.Errorf("resuming the testee: %w", err)
	}
	return nil
}

// resume resumes the threads of process pid (one: it was created
// suspended).
func resume(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	n := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != uint32(pid) {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return errors.New("no thread of the new process found")
	}
	return nil
}

// kill terminates the testee's job: the testee and everything it started.
func (p *proc) kill() {
	p.sys.mu.Lock()
	defer p.sys.mu.Unlock()
	if p.sys.job != 0 {
		windows.TerminateJobObject(p.sys.job, 1)
	}
}

// killTree terminates the job and waits, up to a second, for its
// processes to be gone (their handles closed, the input files they had
// open free to be removed).
func (p *proc) killTree() {
	p.kill()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if p.jobProcesses() == 0 {
			return
		}
	}
}

// jobProcesses is the number of processes still alive in the job (0 once
// it is released).
func (p *proc) jobProcesses() uint32 {
	p.sys.mu.Lock()
	defer p.sys.mu.Unlock()
	if p.sys.job == 0 {
		return 0
	}
	var info jobAccounting
	if windows.QueryInformationJobObject(p.sys.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil) != nil {
		return 0
	}
	return info.ActiveProcesses
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which
// golang.org/x/sys/windows does not declare.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}

// release closes conform's handle to the job, after reap.
func (p *proc) release() {
	p.sys.mu.Lock()
	defer p.sys.mu.Unlock()
	if p.sys.job != 0 {
		windows.CloseHandle(p.sys.job)
		p.sys.job = 0
	}
}

// No subreaper on Windows, nor any need of one: no process leaves the job.
func becomeSubreaper() {}

func startTime(pid int) uint64 { return 0 }

// brokenPipe reports whether err says the reader of a pipe is gone.
func brokenPipe(err error) bool {
	return errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_NO_DATA) || errors.Is(err, syscall.EPIPE)
}
