"""Training the ``pro`` bot's value: self-play data, a fit per stage, weights shipped in the package.

``ofc.train.selfplay`` generates records in chunks (each chunk reproducible from the run seed
and its number), ``ofc.train.fit`` fits one ridge regression per stage (scikit-learn, the
``train`` extra), ``ofc.train.run`` chains them over rounds and writes the weights file that
``ofc.bots.pro_weights`` reads at play time, and ``ofc.train.cluster`` runs chunks on a Ray
cluster or local processes.
"""
