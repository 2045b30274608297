//! The finished index, opened for reading only.
//!
//! Tantivy's reader takes the index's meta lock while it opens the segments: it creates
//! `.tantivy-meta.lock` in the index folder. On a site that cannot be written (a checkout
//! mounted read-only, a folder of another user) that failed, the index counted as missing, and
//! `rulebook search` tried to build it again, which failed too: "Permission denied" for a
//! current index. Our indexes are never changed where they lie (a build writes a new folder
//! and renames it into place, [`super::index::SearchIndex::build`]), so a reader has no writer
//! to wait for and takes no lock; and a search writes nothing at all.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, MmapDirectory, WatchCallback, WatchHandle, WritePtr,
};

/// An index folder read through memory maps, as [`MmapDirectory`] does, that refuses writes
/// and hands out locks without a file.
#[derive(Clone, Debug)]
pub struct ReadOnly(MmapDirectory);

impl ReadOnly {
    pub fn open(dir: &Path) -> tantivy::Result<ReadOnly> {
        Ok(ReadOnly(MmapDirectory::open(dir)?))
    }
}

fn refused(path: &Path) -> Arc<io::Error> {
    Arc::new(io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("the search index is read only here ({})", path.display()),
    ))
}

impl Directory for ReadOnly {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        self.0.get_file_handle(path)
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        Err(DeleteError::IoError {
            io_error: refused(path),
            filepath: PathBuf::from(path),
        })
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.0.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        Err(OpenWriteError::IoError {
            io_error: refused(path),
            filepath: PathBuf::from(path),
        })
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.0.atomic_read(path)
    }

    fn atomic_write(&self, path: &Path, _data: &[u8]) -> io::Result<()> {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            refused(path).to_string(),
        ))
    }

    fn sync_directory(&self) -> io::Result<()> {
        Ok(())
    }

    /// A lock that holds nothing: nobody writes this folder (see the module's comment).
    fn acquire_lock(&self, _lock: &Lock) -> Result<DirectoryLock, LockError> {
        Ok(DirectoryLock::from(Box::new(())))
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.0.watch(watch_callback)
    }
}
