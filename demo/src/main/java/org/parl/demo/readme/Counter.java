package org.parl.demo.readme;

// readme:start
public interface Counter { int add(int x); int value(); }
// readme:end
