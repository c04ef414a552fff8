//! Writes the static site: `snowflake-site DIR MODULE` puts into `DIR` a page per language
//! (`id/`, `he/`, `en/`), the front door that sends a reader to theirs (`index.html`), the
//! script, the catalogues (`locales/`) and the module built from this crate's library for
//! `wasm32-unknown-unknown` (`MODULE`, copied). `scripts/site.sh DIR` builds the module and
//! runs this.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::{env, fs, io};

use snowflake_kit::SystemClock;
use snowflake_page::{
    Hosting, Lang, MODULE_FILE, SCRIPT, SCRIPT_FILE, Words, catalogue, render, render_front_door,
};

fn main() -> ExitCode {
    let args: Vec<PathBuf> = env::args_os().skip(1).map(PathBuf::from).collect();
    let [dir, module] = args.as_slice() else {
        eprintln!("usage: snowflake-site DIR MODULE (the site's folder, the built .wasm module)");
        return ExitCode::from(2);
    };
    match write_site(dir, module) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("snowflake-site: {}: {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}

fn write_site(dir: &Path, module: &Path) -> io::Result<()> {
    fs::create_dir_all(dir.join("locales"))?;
    // Each page as a first visit renders it; the script renders the address's query, and
    // an ID of now, when it loads.
    for lang in Lang::ALL {
        let folder = dir.join(lang.tag());
        fs::create_dir_all(&folder)?;
        let page = render(Words::of(lang), Hosting::StaticFiles, &[], &SystemClock);
        fs::write(folder.join("index.html"), page)?;
        fs::write(
            dir.join("locales").join(format!("{}.ftl", lang.tag())),
            catalogue(lang),
        )?;
    }
    fs::write(dir.join("index.html"), render_front_door())?;
    fs::write(dir.join(SCRIPT_FILE), SCRIPT)?;
    fs::copy(module, dir.join(MODULE_FILE))
        .map_err(|e| io::Error::new(e.kind(), format!("the module {}: {e}", module.display())))?;
    Ok(())
}
