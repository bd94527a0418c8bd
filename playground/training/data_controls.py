"""The data column: which points to learn (dataset, classes, size, noise, split, seed, a person's CSV)
and the input features the network sees."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from ..common.numbers import format_number
from ..widgets.file_dialogs import FILE_FOLDER
from .model.settings import (
    CLASS_COUNTS,
    CLASSIFICATION_DATASETS,
    DATASETS,
    FEATURES,
    MAX_TF_NOISE,
    PROBLEM_DATA,
    PROBLEMS,
    REGRESSION_DATASETS,
    TF_DATASETS,
    TrainingSettings,
)
from .number_boxes import IntBox
from .widgets import named

FEATURE_OBJECT_NAMES = {
    "x1": "featureX1Check", "x2": "featureX2Check", "x1^2": "featureX1SquaredCheck",
    "x2^2": "featureX2SquaredCheck", "x1*x2": "featureX1X2Check", "sin x1": "featureSinX1Check",
    "sin x2": "featureSinX2Check",
}


def slider_with_value(name: str, tip: str, low: int, high: int, spoken: str) -> tuple[QSlider, QLabel, QWidget]:
    """A horizontal slider (named ``spoken`` for a screen reader) with the value it stands for written on its
    right."""
    slider = named(QSlider(Qt.Orientation.Horizontal), name, tip, spoken=spoken)
    slider.setRange(low, high)
    value = QLabel()
    value.setMinimumWidth(34)
    value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(slider, 1)
    row.addWidget(value)
    return slider, value, holder


class DataControls(QWidget):
    """Edits the data and feature fields of `TrainingSettings`; `edited` says one changed."""

    edited = Signal()
    csv_chosen = Signal(str)      # a path the person picked
    edit_refused = Signal(str)    # why an edit was undone
    input_clamped = Signal(str)   # a typed number was out of range: what became of it

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._csv_name = ""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 4, 0)
        layout.addWidget(self._build_data_group())
        layout.addWidget(self._build_features_group())
        layout.addStretch(1)
        for box in (self.class_count_spin, self.points_spin, self.seed_spin):
            box.clamped.connect(self.input_clamped)

    def _build_data_group(self) -> QGroupBox:
        data = QGroupBox("DATA")
        form = QFormLayout(data)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        # The TF Playground's data, loss, initial weights and SGD (`model.tf_setting`): its numbers mean the same.
        self.tf_check = named(QCheckBox("Data and loss as in the TF Playground"), "tfPlaygroundCheck",
                              "Its own data generators (500 points on its [-6, 6] square; noise 0 to 50, a URL's up to "
                              "80), labels +1/-1 on a tanh output, the loss the mean of ½(output − label)², weights "
                              "U(−0.5, 0.5) and biases 0.1, plain SGD after every batch: the MLCC worksheets' numbers "
                              "mean the same here", spoken="Data and loss as in the TF Playground")
        self.tf_check.toggled.connect(self.edited)
        form.addRow(self.tf_check)
        self.problem_combo = named(QComboBox(), "problemCombo",
                                   "Problem type: classification (a class per point) or regression (a real value "
                                   "per point)", spoken="Problem")
        for key, title in PROBLEMS.items():
            self.problem_combo.addItem(title, key)
        self.problem_combo.currentIndexChanged.connect(self.edited)
        form.addRow("Problem", self.problem_combo)
        self.dataset_combo = named(QComboBox(), "datasetCombo", "Which dataset to learn", spoken="Dataset")
        for key, title in DATASETS.items():
            if key != "csv":  # a CSV's entry comes with its file
                self.dataset_combo.addItem(title, key)
        self.dataset_combo.currentIndexChanged.connect(self.edited)
        form.addRow(self.dataset_combo)
        self._csv_regression = False  # the loaded CSV's third column: real values (else labels)
        self.class_count_spin = named(IntBox("Classes", 2, 8), "classCountSpin",
                                      "Number of classes: spiral arms (2 to 5) or blob centres (2 to 6)",
                                      spoken="Number of classes")
        self.class_count_spin.valueChanged.connect(self.edited)
        form.addRow("Classes", self.class_count_spin)
        self.load_csv_button = named(QPushButton("Load CSV…"), "loadCsvButton",
                                     "Train on your own points: rows of x1,x2,label with 2 to 8 labels "
                                     "(numbers or names)")
        self.load_csv_button.clicked.connect(self._on_load_csv_button_clicked)
        form.addRow(self.load_csv_button)
        self.points_spin = named(IntBox("Points", 10, 2000), "pointsSpin", "Number of points (train and test)",
                                 spoken="Number of points")
        self.points_spin.setSingleStep(10)
        self.points_spin.valueChanged.connect(self.edited)
        form.addRow("Points", self.points_spin)
        self.noise_slider, self.noise_value, holder = slider_with_value("noiseSlider", "Noise added to the points",
                                                                        0, 50, "Noise")
        self.noise_slider.valueChanged.connect(self.edited)
        form.addRow("Noise", holder)
        self.test_slider, self.test_value, holder = slider_with_value("testFractionSlider",
                                                                      "Share of the points kept for testing", 10, 90,
                                                                      "Percent of the points kept for testing")
        self.test_slider.valueChanged.connect(self.edited)
        form.addRow("Test", holder)
        self.seed_spin = named(IntBox("Seed", 0, 999_999), "seedSpin",
                               "Seed for the data, the split and the initial weights")
        self.seed_spin.valueChanged.connect(self.edited)
        form.addRow("Seed", self.seed_spin)
        # A TF Playground page's own seed (its URL's "seed=0.50819"): that page's very points and first weights.
        self.tf_seed_input = named(QLineEdit(), "tfSeedInput",
                                   "The seed of a TF Playground page (its URL's seed=0.50819): that page's very points "
                                   "and first weights. Empty: the Seed box", spoken="TF Playground seed")
        self.tf_seed_input.setMaxLength(40)
        self.tf_seed_input.setPlaceholderText("its URL's seed, e.g. 0.50819")
        self.tf_seed_input.editingFinished.connect(self.edited)
        self.tf_seed_label = QLabel("TF seed")
        form.addRow(self.tf_seed_label, self.tf_seed_input)
        self.regenerate_button = named(QPushButton("Regenerate"), "regenerateButton",
                                       "New random data (the next seed) and new initial weights")
        self.regenerate_button.clicked.connect(self._on_regenerate_button_clicked)
        form.addRow(self.regenerate_button)
        return data

    def _build_features_group(self) -> QGroupBox:
        features = self.features_group = QGroupBox("FEATURES")
        grid = QGridLayout(features)
        self.feature_checks: dict[str, QCheckBox] = {}
        for index, (key, title) in enumerate(FEATURES.items()):
            check = named(QCheckBox(title), FEATURE_OBJECT_NAMES[key], f"Feed {title} to the network")
            check.toggled.connect(self._on_feature_check_toggled)
            self.feature_checks[key] = check
            grid.addWidget(check, index // 2, index % 2)
        return features

    # -- settings <-> controls --

    def _controls(self) -> tuple[QWidget, ...]:
        return (self.tf_check, self.tf_seed_input, self.problem_combo, self.dataset_combo, self.class_count_spin,
                self.points_spin, self.noise_slider, self.test_slider, self.seed_spin, *self.feature_checks.values())

    def show_settings(self, s: TrainingSettings) -> None:
        """Put ``s`` into the controls without signalling."""
        controls = self._controls()
        for control in controls:
            control.blockSignals(True)
        try:
            if s.dataset == "csv" and self.dataset_combo.findData("csv") < 0:
                self.dataset_combo.addItem(f"Your CSV: {self._csv_name}", "csv")
            self.tf_check.setChecked(s.tf_playground)
            self.tf_seed_input.setText(s.tf_seed)
            self._show_noise_range(s.tf_playground)
            self.problem_combo.setCurrentIndex(self.problem_combo.findData(s.problem))
            self.dataset_combo.setCurrentIndex(self.dataset_combo.findData(s.dataset))
            self._show_class_range(s.dataset)
            self.class_count_spin.setValue(s.classes)
            self.points_spin.setValue(s.points)
            self.noise_slider.setValue(round(s.noise * 100))
            self.test_slider.setValue(round(s.test_fraction * 100))
            self.seed_spin.setValue(s.seed)
            for key, check in self.feature_checks.items():
                check.setChecked(key in s.features)
        finally:
            for control in controls:
                control.blockSignals(False)

    def show_dependent(self, s: TrainingSettings) -> None:
        """What follows from the settings: which controls apply, and the values beside the sliders."""
        csv = s.dataset == "csv"
        self.class_count_spin.setEnabled(s.dataset in CLASS_COUNTS and not csv and not s.regression)
        fitting = REGRESSION_DATASETS if s.regression else CLASSIFICATION_DATASETS  # the problem's datasets only
        model = self.dataset_combo.model()
        for index in range(self.dataset_combo.count()):
            key = self.dataset_combo.itemData(index)
            usable = key in fitting and (key != "csv" or self._csv_regression == s.regression)
            model.item(index).setEnabled(usable and (key in TF_DATASETS or not s.tf_playground))
        tf = s.tf_playground  # its points are its own count; its noise is its slider's, 0 to 50 (80)
        self.class_count_spin.setEnabled(self.class_count_spin.isEnabled() and not tf)
        self.points_spin.setEnabled(not csv and not tf)
        self.load_csv_button.setEnabled(not tf)
        for widget in (self.tf_seed_label, self.tf_seed_input):
            widget.setVisible(tf)
        self.noise_slider.setEnabled(not csv)
        self.noise_value.setText(format_number(round(100 * s.noise)) if tf else format_number(s.noise))
        self.test_value.setText(f"{format_number(round(s.test_fraction * 100))}%")
        self.features_group.setVisible(not s.trains_graph)  # a graph reads x1 and x2 by its own inputs

    def _show_noise_range(self, tf: bool) -> None:
        """The TF Playground's noise slider goes to 50 and its URLs to 80: the slider reaches 80 with the setting."""
        self.noise_slider.setRange(0, round(100 * MAX_TF_NOISE) if tf else 50)

    def _show_class_range(self, dataset: str) -> None:
        low, high = CLASS_COUNTS.get(dataset, (2, 2))
        self.class_count_spin.blockSignals(True)
        self.class_count_spin.setRange(low, high)
        self.class_count_spin.blockSignals(False)

    def values(self) -> dict:
        """The fields of `TrainingSettings` this column edits, as the controls show them: a dataset with
        a fixed number of classes takes its own, whatever the box said for the previous one."""
        problem = self.problem_combo.currentData()
        dataset = self.dataset_combo.currentData()
        regression = problem == "regression"
        if dataset not in (REGRESSION_DATASETS if regression else CLASSIFICATION_DATASETS) or (
                dataset == "csv" and self._csv_regression != regression):  # another problem: its own data
            dataset = PROBLEM_DATA[problem]["dataset"]
            self._show_problem_data(problem)
        self._show_class_range(dataset)
        return dict(
            tf_playground=self.tf_check.isChecked(),
            tf_seed=self.tf_seed_input.text().strip() if self.tf_check.isChecked() else "",
            problem=problem,
            dataset=dataset,
            classes=self.class_count_spin.value(),
            points=self.points_spin.value(),
            noise=self.noise_slider.value() / 100,
            test_fraction=self.test_slider.value() / 100,
            seed=self.seed_spin.value(),
            features=tuple(key for key, check in self.feature_checks.items() if check.isChecked()),
        )

    def _show_problem_data(self, problem: str) -> None:
        """A person switched the problem type: the points and noise it starts from (`PROBLEM_DATA`)."""
        data = PROBLEM_DATA[problem]
        for control in (self.points_spin, self.noise_slider):
            control.blockSignals(True)
        try:
            self.points_spin.setValue(data["points"])
            self.noise_slider.setValue(round(data["noise"] * 100))
        finally:
            for control in (self.points_spin, self.noise_slider):
                control.blockSignals(False)

    @property
    def has_csv(self) -> bool:
        return self.dataset_combo.findData("csv") >= 0

    def show_csv_name(self, name: str, regression: bool = False) -> None:
        """The CSV loaded, for a classification or (``regression``) a regression."""
        self._csv_name = name
        self._csv_regression = regression
        index = self.dataset_combo.findData("csv")
        if index >= 0:
            self.dataset_combo.setItemText(index, f"Your CSV: {name}")

    def show_point_count(self, count: int) -> None:
        """A CSV's size in the points box (which a CSV does not let a person set)."""
        self.points_spin.blockSignals(True)
        self.points_spin.setValue(count)
        self.points_spin.blockSignals(False)

    # -- slots --

    @Slot(bool)
    def _on_feature_check_toggled(self, checked: bool) -> None:
        if not any(check.isChecked() for check in self.feature_checks.values()):
            sender = self.sender()
            sender.blockSignals(True)
            sender.setChecked(True)
            sender.blockSignals(False)
            self.edit_refused.emit("The network needs at least one input feature.")
            return
        self.edited.emit()

    @Slot()
    def _on_regenerate_button_clicked(self) -> None:
        if self.tf_seed_input.text():  # as its Regenerate: a new seed, the page's no longer
            self.tf_seed_input.blockSignals(True)
            self.tf_seed_input.clear()
            self.tf_seed_input.blockSignals(False)
        self.seed_spin.setValue((self.seed_spin.value() + 1) % (self.seed_spin.maximum() + 1))

    @Slot()
    def _on_load_csv_button_clicked(self) -> None:
        path = FILE_FOLDER.ask_open_path(self, "Load points", "CSV files (*.csv *.txt);;All files (*)")
        if path:
            self.csv_chosen.emit(path)
