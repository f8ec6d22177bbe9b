//! Atomic output files: everything is written to a temporary file in the
//! destination folder and renamed into place, so a reader never sees a
//! half-written file and a failed run leaves earlier outputs untouched.
//!
//! A whole output folder changes as a unit through [`OutputFolder`]: a
//! command holds an advisory lock on the folder while it writes (a second
//! writer is refused), removes the folder's `manifest.json` before its first
//! write, and writes a new manifest last, naming every file it wrote with
//! its size and hash. [`verify_manifest`] refuses a folder without one (a
//! command was interrupted while writing it) or whose files do not match it
//! (files of two runs, or a file changed since).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

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

/// The file an output folder's writer writes last, naming every output.
pub const MANIFEST_FILE: &str = "manifest.json";

/// The advisory lock a command holds on its output folder while writing it.
pub const LOCK_FILE: &str = ".barsoom.lock";

/// One file a manifest names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// File name inside the folder.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// `xxh3-128:` and the hash of the content in hex.
    pub hash: String,
}

/// What wrote an output folder: the command and the scenarios its results
/// are of. A command refuses to write over a folder holding another
/// scenario's results unless told to replace them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrittenBy {
    /// The command (`run`, `sweep`, `compare`, ...).
    pub command: String,
    /// The scenario files (canonical paths where they exist; none for
    /// `bench`).
    pub scenarios: Vec<String>,
}

impl WrittenBy {
    /// `command` on `scenarios`, each named by its canonical path when it
    /// has one (so the same file reached by another path is the same).
    pub fn new(command: &str, scenarios: &[&Path]) -> Self {
        WrittenBy {
            command: command.to_string(),
            scenarios: scenarios
                .iter()
                .map(|p| {
                    std::fs::canonicalize(p)
                        .unwrap_or_else(|_| p.to_path_buf())
                        .display()
                        .to_string()
                })
                .collect(),
        }
    }

    /// The scenarios in words: `a.toml`, `a.toml and b.toml` or "no
    /// scenario".
    fn subject(&self) -> String {
        if self.scenarios.is_empty() {
            "no scenario".to_string()
        } else {
            self.scenarios.join(" and ")
        }
    }
}

/// The content of `manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Every output of the command that wrote the folder.
    pub files: Vec<ManifestEntry>,
    /// What wrote it (absent in folders of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written_by: Option<WrittenBy>,
}

/// Whether `name` is one plain path component (not empty, `.`, `..`, or
/// anything with a separator or a root), safe to join to a folder.
pub fn is_plain_name(name: &str) -> bool {
    let mut parts = Path::new(name).components();
    matches!(
        (parts.next(), parts.next()),
        (Some(Component::Normal(part)), None) if part == name
    ) && !name.contains(['/', '\\', '\0'])
}

/// Size and hash of the file at `path`.
fn hash_file(path: &Path) -> Result<(u64, String), OutputError> {
    let mut file = File::open(path).map_err(|e| OutputError::new(path, e))?;
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let n = file
            .read(&mut buffer)
            .map_err(|e| OutputError::new(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        bytes += n as u64;
    }
    Ok((bytes, format!("xxh3-128:{:032x}", hasher.digest128())))
}

/// Reads `dir`'s manifest; `Ok(None)` if there is none.
fn read_manifest(dir: &Path) -> Result<Option<Manifest>, OutputError> {
    let path = dir.join(MANIFEST_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(OutputError::new(&path, format!("cannot read it: {e}"))),
    };
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
        OutputError::new(&path, format!("expected the manifest barsoom writes: {e}"))
    })?;
    if let Some(bad) = manifest.files.iter().find(|f| !is_plain_name(&f.name)) {
        return Err(OutputError::new(
            &path,
            format!(
                "names {:?}, expected a file name inside the folder",
                bad.name
            ),
        ));
    }
    Ok(Some(manifest))
}

/// Checks that `dir` has a manifest and that every file it names (or only
/// `only`, if given and named) is there with the size and hash recorded.
pub fn verify_manifest(dir: &Path, only: Option<&str>) -> Result<(), OutputError> {
    let Some(manifest) = read_manifest(dir)? else {
        return Err(OutputError::new(
            dir,
            format!(
                "no {MANIFEST_FILE}: the folder is incomplete (a command writing it was interrupted or is still running, or an older barsoom wrote it); run the command again"
            ),
        ));
    };
    for entry in manifest
        .files
        .iter()
        .filter(|f| only.is_none_or(|name| f.name == name))
    {
        let path = dir.join(&entry.name);
        if !path.is_file() {
            return Err(OutputError::new(
                &path,
                format!("named in {MANIFEST_FILE} but missing: the folder is incomplete"),
            ));
        }
        let (bytes, hash) = hash_file(&path)?;
        if bytes != entry.bytes || hash != entry.hash {
            return Err(OutputError::new(
                &path,
                format!(
                    "does not match {MANIFEST_FILE} ({bytes} bytes, {hash}; the manifest says {} bytes, {}): the folder mixes files of different runs, or the file was changed",
                    entry.bytes, entry.hash
                ),
            ));
        }
    }
    Ok(())
}

/// What wrote `dir`, as its manifest records (`None` without a manifest
/// or a record).
pub fn written_by(dir: &Path) -> Result<Option<WrittenBy>, OutputError> {
    Ok(read_manifest(dir)?.and_then(|m| m.written_by))
}

/// Whether `dir`'s manifest names `name` (`false` without a manifest).
pub fn manifest_names(dir: &Path, name: &str) -> Result<bool, OutputError> {
    Ok(read_manifest(dir)?.is_some_and(|m| m.files.iter().any(|f| f.name == name)))
}

/// Removes the file at `path` (described as `what` in the error) if it is
/// there.
pub fn remove_if_present(path: &Path, what: &str) -> Result<(), OutputError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(OutputError::new(path, format!("cannot remove {what}: {e}")))
        }
        _ => Ok(()),
    }
}

/// An output folder held for writing: created, locked against a second
/// writer, its old manifest removed; [`finish`](Self::finish) writes the new
/// one. Dereferences to the folder's path.
#[derive(Debug)]
pub struct OutputFolder {
    dir: PathBuf,
    /// What is writing it, recorded in the new manifest.
    writer: WrittenBy,
    /// Files the previous manifest named: removed at the end unless written
    /// again, so no output of an earlier command stays beside new ones.
    previous: Vec<String>,
    /// Held (and the lock with it) until the command ends.
    _lock: File,
    /// Whether this command created the folder: one that fails before
    /// [`finish`](Self::finish) then leaves no empty folder behind.
    created: bool,
    /// Whether [`finish`](Self::finish) wrote the manifest.
    finished: std::sync::atomic::AtomicBool,
}

impl OutputFolder {
    /// Creates `dir` if needed, takes its lock and removes its manifest.
    /// Fails before any work if the folder cannot be created or written, if
    /// another process is writing it, or if its manifest says it holds the
    /// results of other scenarios than `writer`'s (unless `replace`).
    pub fn open(dir: &Path, writer: WrittenBy, replace: bool) -> Result<Self, OutputError> {
        let created = !dir.exists();
        std::fs::create_dir_all(dir)
            .map_err(|e| OutputError::new(dir, format!("cannot create the output folder: {e}")))?;
        let lock_path = dir.join(LOCK_FILE);
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| {
                OutputError::new(dir, format!("cannot write in the output folder: {e}"))
            })?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(OutputError::new(
                    dir,
                    format!(
                        "another barsoom process is writing this folder (it holds {LOCK_FILE}); wait for it to finish or choose another --out"
                    ),
                ));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(OutputError::new(
                    &lock_path,
                    format!("cannot lock the output folder: {e}"),
                ));
            }
        }
        let old = read_manifest(dir).ok().flatten();
        if let Some(by) = old.as_ref().and_then(|m| m.written_by.as_ref())
            && by.scenarios != writer.scenarios
            && !replace
        {
            return Err(OutputError::new(
                dir,
                format!(
                    "holds the results of `barsoom {}` on {}; refusing to replace them with results on {}: choose another --out, or add --force to replace them",
                    by.command,
                    by.subject(),
                    writer.subject()
                ),
            ));
        }
        let previous = old
            .map(|m| m.files.into_iter().map(|f| f.name).collect())
            .unwrap_or_default();
        remove_if_present(&dir.join(MANIFEST_FILE), "the old manifest")?;
        Ok(OutputFolder {
            dir: dir.to_path_buf(),
            writer,
            previous,
            _lock: lock,
            created,
            finished: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Removes the previous command's outputs that were not written again,
    /// then writes the manifest naming `written` (paths inside the folder),
    /// last. Returns the manifest's path.
    pub fn finish(&self, written: &[PathBuf]) -> Result<PathBuf, OutputError> {
        let mut files = Vec::with_capacity(written.len());
        for path in written {
            let name = path
                .strip_prefix(&self.dir)
                .ok()
                .and_then(|p| p.to_str())
                .filter(|n| is_plain_name(n))
                .ok_or_else(|| OutputError::new(path, "is not a file of the output folder"))?;
            if files.iter().any(|f: &ManifestEntry| f.name == name) {
                continue;
            }
            let (bytes, hash) = hash_file(path)?;
            files.push(ManifestEntry {
                name: name.to_string(),
                bytes,
                hash,
            });
        }
        for stale in self
            .previous
            .iter()
            .filter(|old| !files.iter().any(|f| &f.name == *old))
        {
            remove_if_present(&self.dir.join(stale), "this output of an earlier command")?;
        }
        let manifest = Manifest {
            files,
            written_by: Some(self.writer.clone()),
        };
        let text = serde_json::to_string_pretty(&manifest)
            .map_err(|e| OutputError::new(&self.dir.join(MANIFEST_FILE), e))?;
        let manifest = write_atomic(&self.dir.join(MANIFEST_FILE), text.as_bytes())?;
        self.finished
            .store(true, std::sync::atomic::Ordering::Relaxed);
        Ok(manifest)
    }
}

impl Drop for OutputFolder {
    /// A command that created its folder and failed before writing its
    /// manifest takes the lock back and removes the folder if nothing else
    /// is in it (a failed `sweep` left an empty folder holding only its
    /// lock).
    fn drop(&mut self) {
        if self.created && !self.finished.load(std::sync::atomic::Ordering::Relaxed) {
            let _ = std::fs::remove_file(self.dir.join(LOCK_FILE));
            // Fails, as it should, when the folder is not empty.
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

impl std::ops::Deref for OutputFolder {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_left_unfinished_is_removed_only_if_this_command_created_it_and_it_is_empty() {
        let root = tempfile::tempdir().expect("tempdir");
        let writer = || WrittenBy::new("sweep", &[]);
        let fresh = root.path().join("fresh");
        drop(OutputFolder::open(&fresh, writer(), false).expect("open"));
        assert!(
            !fresh.exists(),
            "a folder this command created and left empty goes"
        );

        let kept = root.path().join("kept");
        std::fs::create_dir(&kept).expect("mkdir");
        drop(OutputFolder::open(&kept, writer(), false).expect("open"));
        assert!(kept.exists(), "a folder that was there stays");

        let partial = root.path().join("partial");
        let folder = OutputFolder::open(&partial, writer(), false).expect("open");
        write_atomic(&partial.join("rows.csv"), b"a\n").expect("write");
        drop(folder);
        assert!(partial.join("rows.csv").exists(), "what was written stays");

        let done = root.path().join("done");
        let folder = OutputFolder::open(&done, writer(), false).expect("open");
        folder.finish(&[]).expect("finish");
        drop(folder);
        assert!(done.join(MANIFEST_FILE).exists(), "a finished folder stays");
    }

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

    #[test]
    fn a_folder_has_one_writer_and_a_manifest_of_what_it_wrote() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        let folder = OutputFolder::open(&out, WrittenBy::default(), false).expect("open");
        let second = OutputFolder::open(&out, WrittenBy::default(), false)
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert!(
            second
                .as_ref()
                .is_err_and(|e| e.contains("another barsoom process")),
            "{second:?}"
        );
        let a = write_atomic(&out.join("a.csv"), b"1,2").expect("write");
        let b = write_atomic(&out.join("b.csv"), b"3,4").expect("write");
        assert!(verify_manifest(&out, None).is_err(), "no manifest yet");
        folder.finish(&[a, b]).expect("finish");
        drop(folder);
        assert_eq!(
            verify_manifest(&out, None).map_err(|e| e.to_string()),
            Ok(())
        );
        // A file from elsewhere: refused.
        std::fs::write(out.join("b.csv"), b"3,5").expect("write");
        let mixed = verify_manifest(&out, None).map_err(|e| e.to_string());
        assert!(
            mixed
                .as_ref()
                .is_err_and(|e| e.contains("b.csv") && e.contains("does not match")),
            "{mixed:?}"
        );
        assert!(verify_manifest(&out, Some("a.csv")).is_ok());
        // The next writer removes what it does not write again.
        let folder = OutputFolder::open(&out, WrittenBy::default(), false).expect("open again");
        assert!(!out.join(MANIFEST_FILE).exists());
        let a = write_atomic(&out.join("a.csv"), b"5,6").expect("write");
        folder.finish(&[a]).expect("finish");
        assert!(!out.join("b.csv").exists(), "stale output removed");
        assert!(verify_manifest(&out, None).is_ok());
    }

    #[test]
    fn another_scenarios_results_are_replaced_only_when_asked() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        let a = dir.path().join("a.toml");
        std::fs::write(&a, "").expect("write");
        let by_a = WrittenBy::new("run", &[&a]);
        let folder = OutputFolder::open(&out, by_a.clone(), false).expect("open");
        let file = write_atomic(&out.join("summary.csv"), b"a").expect("write");
        folder.finish(&[file]).expect("finish");
        drop(folder);
        assert_eq!(written_by(&out).expect("read"), Some(by_a.clone()));
        // The same file by another path: the same scenario.
        let again = WrittenBy::new("sweep", &[&dir.path().join("./a.toml")]);
        drop(OutputFolder::open(&out, again, false).expect("same scenario"));
        // A manifest was removed by that open: write it back.
        let folder = OutputFolder::open(&out, by_a, false).expect("open");
        folder.finish(&[out.join("summary.csv")]).expect("finish");
        drop(folder);
        let by_b = WrittenBy::new("run", &[Path::new("b.toml")]);
        let refused = OutputFolder::open(&out, by_b.clone(), false)
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert!(
            refused
                .as_ref()
                .is_err_and(|e| e.contains("holds the results of `barsoom run` on")
                    && e.contains("b.toml")
                    && e.contains("--force")),
            "{refused:?}"
        );
        assert!(
            out.join(MANIFEST_FILE).exists(),
            "the refusal changed nothing"
        );
        assert!(
            OutputFolder::open(&out, by_b, true).is_ok(),
            "--force replaces"
        );
    }

    #[test]
    fn plain_names_are_one_component() {
        for good in ["padwar-vs-padwar", "a.b", "x y"] {
            assert!(is_plain_name(good), "{good}");
        }
        for bad in ["", ".", "..", "../x", "a/b", "/abs", "a\\b", "./a"] {
            assert!(!is_plain_name(bad), "{bad}");
        }
    }
}
