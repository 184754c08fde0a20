"""Cut the cough-detector regression clips from real recordings (16 kHz mono FLAC, each < 80 KB).

Clips written next to this script (see LICENSES.md beside it); times are seconds in the clip:

* ``speech_burst_librispeech_1.flac``: dev_long_01.flac 92.0-95.0 s, LibriSpeech speaker 3331
  reading; a fricative burst at 1.65 s that the cough detector took for a cough before
  issue 18's retraining.
* ``speech_burst_librispeech_2.flac``: dev_long_01.flac 497.0-500.0 s, the same reader; a
  burst at 1.54 s, the other false cough of the dev recording.
* ``speech_burst_ravdess.flac``: benchmarks/bank/audio/bank_rec_02.flac 51.9-54.9 s, RAVDESS
  actor 24 (in the ser-train set) saying "Kids are talking by the door?" (surprised): the
  "K" at 1.01 s was a false cough.
* ``cough_over_turn_end.flac``: bank_rec_02.flac 410.0-413.0 s, a real cough (BMC S6)
  starting at 1.72 s over the last 0.25 s of the Flite clinician's "... And the last one."

Run from the repository root: ``.venv/bin/python tests/data/make_cough_regression_clips.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import soundfile as sf

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEV = REPO.parent / "shared" / "data" / "dev" / "dev_long_01.flac"
BANK02 = REPO / "benchmarks" / "bank" / "audio" / "bank_rec_02.flac"
CLIPS = {"speech_burst_librispeech_1": (DEV, 92.0), "speech_burst_librispeech_2": (DEV, 497.0),
         "speech_burst_ravdess": (BANK02, 51.9), "cough_over_turn_end": (BANK02, 410.0)}
SECONDS = 3.0


def main() -> None:
    for name, (src, start) in CLIPS.items():
        x, sr = sf.read(src, dtype="float32", start=int(start * 16000), frames=int(SECONDS * 16000))
        assert sr == 16000
        out = HERE / f"{name}.flac"
        sf.write(out, np.asarray(x, np.float32), sr, subtype="PCM_16")
        print(f"{out.name}: {out.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
