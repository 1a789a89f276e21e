"""Training the ``pro`` bot's value: self-play data, a fit per stage, weights shipped in the package.

``ofc.train.selfplay`` generates records in chunks (each chunk reproducible from the run seed
and its number), ``ofc.train.fit`` fits one ridge regression per stage (scikit-learn, the
``train`` extra), ``ofc.train.run`` chains them over rounds and writes the weights file that
``ofc.bots.pro_weights`` reads at play time, and ``ofc.train.cluster`` runs chunks on a Ray
cluster or local processes.
"""

from __future__ import annotations

from typing import Final

TRAIN_FANTASY: Final = 12.0
"""Points a fantasy entry adds to the training targets."""
TRAIN_FOUL_PENALTY: Final = 5.0
"""Points the fitted value charges per unit of estimated foul chance (``ofc.train.fit``)."""
