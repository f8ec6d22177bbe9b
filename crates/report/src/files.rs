//! Atomic output files: everything is written to a temporary file in the
//! destination folder and renamed into place, so a reader never sees a
//! half-written file and a failed run leaves earlier outputs untouched.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// An output file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct OutputError {
    /// The file being written.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

impl OutputError {
    /// A new error for `path`.
    pub fn new(path: &Path, message: impl ToString) -> Self {
        OutputError {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }
}

/// A file being written in place of `target`; it appears only on [`commit`](Self::commit).
pub(crate) struct AtomicFile {
    temp: NamedTempFile,
    target: PathBuf,
}

impl AtomicFile {
    /// Starts writing `target` (its folder must exist).
    pub fn create(target: &Path) -> Result<Self, OutputError> {
        Self::create_with_suffix(target, ".partial")
    }

    /// Like [`create`](Self::create), with a temporary name ending in
    /// `suffix` (for writers that pick a format from the extension).
    pub(crate) fn create_with_suffix(target: &Path, suffix: &str) -> Result<Self, OutputError> {
        let dir = target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut builder = tempfile::Builder::new();
        builder.prefix(".barsoom-").suffix(suffix);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Outputs are ordinary files, readable by others (umask permitting),
            // not the owner-only mode of a temporary file.
            builder.permissions(std::fs::Permissions::from_mode(0o644));
        }
        let temp = builder.tempfile_in(dir).map_err(|e| {
            OutputError::new(target, format!("cannot create a temporary file: {e}"))
        })?;
        Ok(AtomicFile {
            temp,
            target: target.to_path_buf(),
        })
    }

    /// The open temporary file.
    pub fn file(&mut self) -> &mut File {
        self.temp.as_file_mut()
    }

    /// A second handle to the temporary file (for writers that take ownership).
    pub(crate) fn handle(&self) -> Result<File, OutputError> {
        self.temp
            .reopen()
            .map_err(|e| OutputError::new(&self.target, e))
    }

    /// Path of the temporary file.
    pub(crate) fn temp_path(&self) -> &Path {
        self.temp.path()
    }

    /// Flushes and renames the file into place.
    pub fn commit(mut self) -> Result<PathBuf, OutputError> {
        self.temp
            .as_file_mut()
            .flush()
            .map_err(|e| OutputError::new(&self.target, e))?;
        self.temp
            .as_file()
            .sync_all()
            .map_err(|e| OutputError::new(&self.target, e))?;
        self.temp
            .persist(&self.target)
            .map_err(|e| OutputError::new(&self.target, e.error))?;
        Ok(self.target)
    }
}

/// Writes `bytes` to `target` atomically.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<PathBuf, OutputError> {
    let mut file = AtomicFile::create(target)?;
    file.file()
        .write_all(bytes)
        .map_err(|e| OutputError::new(target, e))?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_appears_until_commit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.txt");
        let mut file = AtomicFile::create(&target).expect("create");
        file.file().write_all(b"hello").expect("write");
        assert!(!target.exists());
        file.commit().expect("commit");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "hello");
    }

    #[test]
    fn an_abandoned_file_leaves_the_old_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.txt");
        write_atomic(&target, b"old").expect("write");
        {
            let mut file = AtomicFile::create(&target).expect("create");
            file.file().write_all(b"new and broken").expect("write");
        }
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "old");
        assert_eq!(
            std::fs::read_dir(dir.path()).expect("list").count(),
            1,
            "temporary file cleaned up"
        );
    }
}
