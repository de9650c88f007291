"""bmi's estimator interface (cbg-ethz/bmi, src/bmi/interface.py) over the lab's methods, so that a workflow written
for bmi's estimators calls milab's unchanged:

    estimator = milab.bmi.Estimator("infonce", recipe="bmi")
    estimator.estimate(x, y)                  # a float, nats
    estimator.estimate_with_info(x, y)        # mi_estimate, time_in_seconds, additional_information
"""
import time


class EstimateResult:
    """bmi's EstimateResult, by its field names: the estimate, the wall time, and what else the run reported."""

    def __init__(self, mi_estimate, time_in_seconds=None, additional_information=None, estimator_id=""):
        self.mi_estimate = float(mi_estimate)
        self.time_in_seconds = time_in_seconds
        self.additional_information = dict(additional_information or {})
        self.estimator_id = estimator_id

    def __repr__(self):
        return (f"EstimateResult(mi_estimate={self.mi_estimate!r}, time_in_seconds={self.time_in_seconds!r}, "
                f"estimator_id={self.estimator_id!r})")


class Estimator:
    """A milab method as bmi's IMutualInformationPointEstimator. `keys` are the method's and the run's keys, as
    milab.estimate takes them; they are checked on the first estimate."""

    def __init__(self, method="ksg", **keys):
        self._method = method
        self._keys = dict(keys)

    def parameters(self):
        """The method and its keys as given (bmi returns its estimator's parameters)."""
        return {"method": self._method, **self._keys}

    @property
    def estimator_id(self):
        return f"milab-{self._method}"

    def estimate_with_info(self, x, y):
        from . import estimate

        start = time.perf_counter()
        result = estimate(x, y, self._method, progress=False, **self._keys)
        seconds = time.perf_counter() - start
        info = dict(result.summary)
        info["curve"] = result.curve
        info["warnings"] = result.warnings
        return EstimateResult(result.estimate, seconds, info, self.estimator_id)

    def estimate(self, x, y):
        return self.estimate_with_info(x, y).mi_estimate
