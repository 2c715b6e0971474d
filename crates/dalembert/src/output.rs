//! Writing artifacts atomically: each file is written to a temporary name in the output
//! directory and flushed to disk, every temporary before any is renamed into place, and the
//! directory is flushed after the renames, so that a crash leaves either the old file or the new
//! one, and a write that fails leaves every old file as it was. Nothing is written unless every
//! artifact rendered. The temporaries are written and flushed each on a thread of its own: a
//! flush waits on the disk, not the processor, and the file system commits flushes that overlap
//! together (no CAS is touched, so the one-thread rule of the `cas` crate is kept). A failed
//! write's temporaries are removed, and the temporaries a killed run left behind
//! (`.<name>.tmp-<pid>`) are removed by the next run that writes `<name>` (`tempfile` would do
//! neither for a killed process: see `docs/architecture.md`).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Artifact;

/// Writes every artifact into `dir` (created if needed); of two artifacts with one name, the
/// later is written. On failure, files already renamed into place by this call are removed
/// again, and a directory this call created is removed.
pub fn write_all(dir: &Path, artifacts: &[Artifact]) -> std::io::Result<()> {
    let created = !dir.exists();
    fs::create_dir_all(dir)?;
    let mut done = Vec::new();
    let mut folders = Vec::new();
    let result = write_into(dir, artifacts, &mut folders, &mut done);
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

/// One artifact's place: its temporary, its target, and its contents.
struct Place<'a> {
    temporary: PathBuf,
    target: PathBuf,
    contents: &'a [u8],
}

/// [`write_all`] into an existing `dir`, noting the folders it creates and the files it renames
/// into place (for the caller to remove on failure).
fn write_into(
    dir: &Path,
    artifacts: &[Artifact],
    folders: &mut Vec<PathBuf>,
    done: &mut Vec<PathBuf>,
) -> std::io::Result<()> {
    let mut places: Vec<Place> = Vec::with_capacity(artifacts.len());
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
        // Two artifacts of one name would share a temporary: the later one is written.
        places.retain(|p| p.target != target);
        places.push(Place {
            temporary,
            target,
            contents: artifact.contents.as_bytes(),
        });
    }
    write_temporaries(&places)?;
    for (k, place) in places.iter().enumerate() {
        if let Err(e) = fs::rename(&place.temporary, &place.target) {
            for rest in &places[k..] {
                let _ = fs::remove_file(&rest.temporary);
            }
            return Err(e);
        }
        done.push(place.target.clone());
    }
    sync_directory(dir)?;
    for folder in folders.iter() {
        sync_directory(folder)?;
    }
    Ok(())
}

/// Every place's temporary written and flushed to disk, each on a thread of its own (on this
/// one when no thread can be started). On failure every temporary is removed and the first
/// failure, in the order of the places, is returned.
fn write_temporaries(places: &[Place]) -> std::io::Result<()> {
    let results: Vec<std::io::Result<()>> = std::thread::scope(|scope| {
        let writers: Vec<_> = places
            .iter()
            .map(|place| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, || write_synced(&place.temporary, place.contents))
            })
            .collect();
        writers
            .into_iter()
            .zip(places)
            .map(|(writer, place)| match writer {
                Ok(writer) => writer
                    .join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("a writer thread panicked"))),
                Err(_) => write_synced(&place.temporary, place.contents),
            })
            .collect()
    });
    match results.into_iter().find(Result::is_err) {
        Some(failure) => {
            for place in places {
                let _ = fs::remove_file(&place.temporary);
            }
            failure
        }
        None => Ok(()),
    }
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

    fn scratch(label: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("dalembert-output-{label}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// Every artifact lands with its contents, in folders of its own where its name has them,
    /// no temporary is left, and of two artifacts with one name the later is written.
    #[test]
    fn every_artifact_is_written_and_no_temporary_is_left() {
        let dir = scratch("many");
        let artifacts: Vec<Artifact> = (0..12)
            .map(|k| Artifact::file(format!("part{k}/f{k}.txt"), format!("file {k}\n")))
            .chain([
                Artifact::file("same.txt".into(), "first\n".into()),
                Artifact::file("same.txt".into(), "second\n".into()),
            ])
            .collect();
        write_all(&dir, &artifacts).unwrap();
        for k in 0..12 {
            let path = dir.join(format!("part{k}/f{k}.txt"));
            assert_eq!(fs::read_to_string(path).unwrap(), format!("file {k}\n"));
        }
        assert_eq!(
            fs::read_to_string(dir.join("same.txt")).unwrap(),
            "second\n"
        );
        let mut left = Vec::new();
        let mut folders = vec![dir.clone()];
        while let Some(folder) = folders.pop() {
            for entry in fs::read_dir(folder).unwrap().flatten() {
                if entry.path().is_dir() {
                    folders.push(entry.path());
                } else if entry.file_name().to_string_lossy().contains(".tmp-") {
                    left.push(entry.path());
                }
            }
        }
        assert!(left.is_empty(), "temporaries left: {left:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A write that fails leaves every old file as it was (nothing is renamed before every
    /// temporary is written) and removes the temporaries it wrote.
    #[test]
    fn a_failed_write_leaves_the_old_files() {
        let dir = scratch("failed");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("a.txt"), "old a\n").unwrap();
        fs::write(dir.join("b.txt"), "old b\n").unwrap();
        // b's temporary cannot be created: a folder has its name.
        let blocked = dir.join(format!(".b.txt.tmp-{}", std::process::id()));
        fs::create_dir_all(&blocked).unwrap();
        let artifacts = [
            Artifact::file("a.txt".into(), "new a\n".into()),
            Artifact::file("b.txt".into(), "new b\n".into()),
            Artifact::file("c.txt".into(), "new c\n".into()),
        ];
        assert!(write_all(&dir, &artifacts).is_err());
        assert_eq!(fs::read_to_string(dir.join("a.txt")).unwrap(), "old a\n");
        assert_eq!(fs::read_to_string(dir.join("b.txt")).unwrap(), "old b\n");
        assert!(!dir.join("c.txt").exists());
        let id = std::process::id();
        assert!(!dir.join(format!(".a.txt.tmp-{id}")).exists());
        assert!(!dir.join(format!(".c.txt.tmp-{id}")).exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
