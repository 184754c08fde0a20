"""Issue 18's coughs and voices sections of ``benchmarks/paraling_bench.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cough_speakers  # noqa: E402
import coughs  # noqa: E402
import voice_cues  # noqa: E402
import voices  # noqa: E402


def coughs_section(library: str | None = None) -> None:
    """Cough events (the index stage's) against every truth file with coughs, before and after;
    false alarms on cough-free speech; whose cough (on ``library``'s diarisation)."""
    print("\n## Cough events: every recording with cough truth (held out from fitting: bank_rec_04..06, cough_mix_02, "
          "cough_under_speech_b)\n")
    print("  one-to-one, 0.25 s overlap tolerance; recall@0.2s counts matches whose onset is within 0.2 s\n")
    for method, title in (("spans", "before (YAMNet spans split on interior bursts)"),
                          ("onsets", "now (burst onsets scored by the cough head: shape, YAMNet on aligned patches)")):
        coughs.METHOD = method
        print(f"  {title}:\n")
        coughs.print_table(coughs.evaluate(coughs.truth_files() + coughs.under_speech()))
        print()
    coughs.METHOD = "onsets"
    print("  false alarms on cough-free speech (make_cough_training.py; RAVDESS, eSpeak NG, Flite):\n")
    coughs.print_false_alarms(coughs.false_alarms())
    if library:
        print(f"\n## Whose cough: attributed speaker vs the truth's cougher ({library})\n")
        print("  a silent cougher (a bystander) is right when attributed to nobody; a missed cough is wrong\n")
        cough_speakers.print_table(cough_speakers.evaluate(Path(library)))


def voices_section(library: str | None) -> None:
    """Speaker EER on the trial lists, and voice-cue first-speak accuracy on ``library``."""
    print("\n## Voices: GE2E equal-error rate (all pairs of utterances of 20 speakers)\n")
    rows = voices.run(8, library)
    voices.print_rows(rows[:3])
    if len(rows) > 3:
        voices.print_presence(rows[3])
    if not library:
        print("\n  (voice-cue accuracy needs --library with the dev and bank recordings indexed)")
        return
    print(f"\n## Voice cues: 'when does the voice in this clip first speak?' ({library})\n")
    for plain, title in ((True, "before (segments near the best match only)"),
                         (False, "now (plus the best match's diarised speaker)")):
        rows = voice_cues.run(library, plain)
        print(f"  {title}: right {sum(r[-1] == 'yes' for r in rows)} of {len(rows)}")
        for r in rows:
            print("    " + "  ".join(map(str, r)))
    print("\n  cues cut from the recordings' own later turns (voice_cues.py --turns):")
    for cond, ok in voice_cues.run_turns(library).items():
        print(f"    cue {cond}: right {sum(ok)} of {len(ok)}")
