"""A run's result as Python reads it: the numbers summary.json holds, as attributes, and the curve as NumPy arrays."""
import math


class Result:
    """One run's result. `float(result)` is its estimate in nats; `summary` is what milab-cli writes to summary.json
    (every field, by its name there); `curve` maps each column of curve.csv to a NumPy array."""

    def __init__(self, name, summary, curve, warnings):
        self.name = name
        self.summary = summary
        self.curve = curve
        self.warnings = list(warnings)
        if summary.get("warning"):
            self.warnings.insert(0, summary["warning"])

    def _number(self, key):
        value = self.summary.get(key)
        return math.nan if value is None else float(value)

    @property
    def estimate(self):
        """The reading in nats (NaN for a run that read none: failed, or stopped before its first step)."""
        return self._number("estimate")

    @property
    def stderr(self):
        return self._number("stderr")

    @property
    def status(self):
        return self.summary.get("status", "")

    @property
    def reason(self):
        """Why the run failed or stopped early, or what its reading should be read with; "" when nothing."""
        return self.summary.get("reason", "") or ""

    @property
    def truth(self):
        """The exact value of what the method estimates (NaN on a user's data, which has none)."""
        return self._number("true_mi")

    @property
    def truth_stderr(self):
        """The truth's Monte Carlo standard error where it is an estimate (bmi's mixtures); 0 for an exact truth."""
        return float(self.summary.get("true_mi_stderr") or 0.0)

    @property
    def baseline(self):
        """A table's permutation baseline: the same method on the rows with y permuted (NaN where none)."""
        b = self.summary.get("permutation_baseline")
        return float(b["estimate"]) if isinstance(b, dict) and b.get("estimate") is not None else math.nan

    @property
    def readings(self):
        """The named readings beside the estimate: ci_level, ci_low, ci_high, p_value, permuted_mean,
        extrapolated and its interval, ... (those the run made)."""
        readings = self.summary.get("readings") or {}
        return {k: float(v) for k, v in readings.items() if v is not None} if isinstance(readings, dict) else {}

    @property
    def interval(self):
        """(low, high) of the reading's confidence interval over the data, or None when the run gives none."""
        r = self.readings
        return (r["ci_low"], r["ci_high"]) if "ci_low" in r and "ci_high" in r else None

    @property
    def p_value(self):
        """The test of independence's p-value, or NaN when the run made none."""
        return self.readings.get("p_value", math.nan)

    @property
    def extrapolated(self):
        """The reading extrapolated to infinite rows (extrapolate=True), or NaN."""
        return self.readings.get("extrapolated", math.nan)

    @property
    def flags(self):
        """The diagnostics' names mapped to their one-line reasons (training not converged, a reading at a cap...)."""
        flags = self.summary.get("flags") or {}
        return dict(flags) if isinstance(flags, dict) else {}

    @property
    def seconds(self):
        return self._number("seconds")

    def __float__(self):
        return self.estimate

    def __repr__(self):
        words = [f"{self.summary.get('method', '?')} on {self.summary.get('task', '?')}: {self.status}"]
        if not math.isnan(self.estimate):
            words.append(f"estimate {self.estimate:.4f} nats")
            if self.stderr > 0:
                words.append(f"+- {self.stderr:.4f}")
        if self.interval:
            words.append(f"interval {self.interval[0]:.4f} to {self.interval[1]:.4f}")
        if not math.isnan(self.truth):
            words.append(f"truth {self.truth:.4f}" + (f" +- {self.truth_stderr:.4f}" if self.truth_stderr > 0 else ""))
        if self.flags:
            words.append("flags " + ", ".join(self.flags))
        if self.reason:
            words.append(f"({self.reason})")
        return f"<milab.Result {' '.join(words)}>"
