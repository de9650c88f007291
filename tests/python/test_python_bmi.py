"""bmi's estimator interface over the lab's methods: the calls and field names of cbg-ethz/bmi's interface."""
import milab


def test_estimate_and_estimate_with_info_read_as_bmi_names_them():
    x, y = milab.sample("gaussian2", 500, seed=3)
    estimator = milab.bmi.Estimator("ksg")
    value = estimator.estimate(x, y)
    info = estimator.estimate_with_info(x, y)
    assert isinstance(value, float) and value == info.mi_estimate
    assert value == milab.estimate(x, y, "ksg").estimate
    assert info.time_in_seconds > 0
    assert info.estimator_id == "milab-ksg"
    assert info.additional_information["status"] == "finished"
    assert "curve" in info.additional_information
    assert estimator.parameters() == {"method": "ksg"}


def test_an_estimators_keys_reach_the_run():
    x, y = milab.sample("gaussian2", 400, seed=3)
    info = milab.bmi.Estimator("infonce", steps=25, K=16).estimate_with_info(x, y)
    assert info.additional_information["steps"] == 25
    assert info.additional_information["experiment"]["K"] == 16
