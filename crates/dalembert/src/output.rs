//! Writing artifacts atomically: each file is written to a temporary name in the output
//! directory, flushed to disk and renamed into place, and the directory is flushed after the
//! renames, so that a crash leaves either the old file or the new one. Nothing is written
//! unless every artifact rendered. A temporary is removed when its write fails, and the
//! temporaries a killed run left behind (`.<name>.tmp-<pid>`) are removed by the next run that
//! writes `<name>` (`tempfile` would do neither for a killed process: see
//! `docs/architecture.md`).

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::Artifact;

/// Writes every artifact into `dir` (created if needed). On failure, files already renamed into
/// place by this call are removed again, and a directory this call created is removed.
pub fn write_all(dir: &Path, artifacts: &[Artifact]) -> std::io::Result<()> {
    let created = !dir.exists();
    fs::create_dir_all(dir)?;
    let mut done = Vec::new();
    let mut folders = Vec::new();
    let result = (|| {
        for artifact in artifacts {
            let target = dir.join(&artifact.file_name);
            // A package's files are in folders of their own.
            let parent = target.parent().unwrap_or(dir).to_path_buf();
            if !parent.exists() {
                fs::create_dir_all(&parent)?;
                folders.push(parent.clone());
            }
            let name = target.file_name().unwrap_or_default().to_string_lossy();
            remove_stale_temporaries(&parent, &name);
            let temporary = parent.join(format!(".{name}.tmp-{}", std::process::id()));
            if let Err(e) = write_synced(&temporary, artifact.contents.as_bytes()) {
                let _ = fs::remove_file(&temporary);
                return Err(e);
            }
            fs::rename(&temporary, &target)?;
            done.push(target);
        }
        sync_directory(dir)?;
        for folder in &folders {
            sync_directory(folder)?;
        }
        Ok(())
    })();
    if result.is_err() {
        for path in &done {
            let _ = fs::remove_file(path);
        }
        for folder in folders.iter().rev() {
            let _ = fs::remove_dir_all(folder);
        }
        if created {
            let _ = fs::remove_dir_all(dir);
        }
    }
    result
}

/// `contents` written to a new file at `path` and flushed to disk.
fn write_synced(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut file = fs::File::create(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

/// The renames in `dir` flushed to disk (a directory is opened read-only to sync it; where that
/// is not possible, as on Windows, there is nothing to flush).
fn sync_directory(dir: &Path) -> std::io::Result<()> {
    match fs::File::open(dir) {
        Ok(handle) => match handle.sync_all() {
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Ok(()),
            other => other,
        },
        Err(_) => Ok(()),
    }
}

/// Removes the temporaries `.<name>.tmp-<pid>` in `dir` of processes that no longer run (a run
/// killed between writing and renaming). Best effort: a file that cannot be removed stays.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let running = pid
            .parse::<u32>()
            .is_ok_and(|pid| pid == std::process::id() || process_runs(pid));
        if !running {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` runs (Linux: `/proc/<pid>` exists; elsewhere assumed running, so that
/// nothing of another process is removed).
fn process_runs(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_killed_runs_temporary_is_removed_and_a_running_ones_kept() {
        let dir = std::env::temp_dir().join(format!("dalembert-output-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // No process has a pid this large (Linux caps pids at 2^22).
        let stale = dir.join(".a.json.tmp-4294967295");
        let live = dir.join(format!(".a.json.tmp-{}", std::process::id()));
        let other = dir.join(".b.json.tmp-4294967295");
        for path in [&stale, &live, &other] {
            fs::write(path, "x").unwrap();
        }
        remove_stale_temporaries(&dir, "a.json");
        assert_eq!(stale.exists(), !Path::new("/proc").is_dir());
        assert!(live.exists(), "this process's own temporary is kept");
        assert!(other.exists(), "another file's temporary is not touched");
        let artifact = Artifact::file("a.json".into(), "{}\n".into());
        write_all(&dir, &[artifact]).unwrap();
        assert_eq!(fs::read_to_string(dir.join("a.json")).unwrap(), "{}\n");
        fs::remove_dir_all(&dir).unwrap();
    }
}
