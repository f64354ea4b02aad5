import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// findBy*/waitFor wait up to 5 s instead of 1 s: screens read the device's database, which loads after
// the first render (decision 052), and CI shares two cores. A broken screen still fails, only later.
configure({ asyncUtilTimeout: 5_000 });
