//! Writing artifacts atomically: each file is written to a temporary name in the output
//! directory and renamed into place, and nothing is written unless every artifact rendered.

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
            let temporary = parent.join(format!(".{name}.tmp-{}", std::process::id()));
            let mut file = fs::File::create(&temporary)?;
            file.write_all(artifact.contents.as_bytes())?;
            file.sync_all()?;
            drop(file);
            fs::rename(&temporary, &target)?;
            done.push(target);
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
