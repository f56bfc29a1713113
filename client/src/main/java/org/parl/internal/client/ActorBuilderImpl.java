package org.parl.internal.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import org.parl.ActorBuilder;
import org.parl.InvalidRequestException;
import org.parl.PlacementGroup;
import org.parl.RemoteActor;
import org.parl.RemoteClass;
import org.parl.internal.resources.ResourceRequest;

/** Collects an actor's resources and arguments, starting from its {@link RemoteClass} defaults. */
final class ActorBuilderImpl<T> implements ActorBuilder<T> {

  /** What to create; validated before anything is sent. */
  record Spec<T>(Class<T> api, Class<? extends T> impl, Constructor<?> ctor, Object[] args,
                 ResourceRequest resources, boolean waitForResources, boolean waitForWorkers, int priority,
                 boolean preempt, PlacementGroupImpl group, int bundle) {}

  private final ParlClientImpl client;
  private final Class<T> api;
  private final Class<? extends T> impl;
  private double gpus;
  private long gpuMemoryMb;
  private String gpuModel;
  private int cpus;
  private int maxMemoryMb;
  private boolean waitForResources;
  private boolean waitForWorkers;
  private Object[] args = new Object[0];
  private int priority;
  private boolean preempt;
  private PlacementGroup group;
  private int bundle;

  ActorBuilderImpl(ParlClientImpl client, Class<T> api, Class<? extends T> impl) {
    this.client = client;
    this.api = api;
    this.impl = impl;
    RemoteClass rc = impl.getAnnotation(RemoteClass.class);
    gpus = rc == null ? 0 : rc.gpus();
    cpus = rc == null ? 1 : rc.cpus();
    maxMemoryMb = rc == null ? 0 : rc.maxMemoryMb();
    gpuMemoryMb = rc == null ? 0 : rc.gpuMemoryMb();
    gpuModel = rc == null ? null : rc.gpuModel();
    waitForResources = rc == null || rc.waitForResources();
    waitForWorkers = rc != null && rc.waitForWorkers();
  }

  @Override
  public ActorBuilder<T> gpus(int n) {
    this.gpus = n;
    return this;
  }

  @Override
  public ActorBuilder<T> gpus(double n) {
    this.gpus = n;
    return this;
  }

  @Override
  public ActorBuilder<T> gpuMemoryMb(long mb) {
    this.gpuMemoryMb = mb;
    return this;
  }

  @Override
  public ActorBuilder<T> gpuModel(String model) {
    this.gpuModel = model;
    return this;
  }

  @Override
  public ActorBuilder<T> waitForWorkers(boolean wait) {
    this.waitForWorkers = wait;
    return this;
  }

  @Override
  public ActorBuilder<T> cpus(int n) {
    this.cpus = n;
    return this;
  }

  @Override
  public ActorBuilder<T> maxMemoryMb(int mb) {
    this.maxMemoryMb = mb;
    return this;
  }

  @Override
  public ActorBuilder<T> waitForResources(boolean wait) {
    this.waitForResources = wait;
    return this;
  }

  @Override
  public ActorBuilder<T> priority(int p) {
    this.priority = p;
    return this;
  }

  @Override
  public ActorBuilder<T> preempt(boolean p) {
    this.preempt = p;
    return this;
  }

  @Override
  public ActorBuilder<T> inGroup(PlacementGroup g, int i) {
    this.group = g;
    this.bundle = i;
    return this;
  }

  @Override
  public ActorBuilder<T> args(Object... values) {
    this.args = values == null ? new Object[] {null} : values.clone();
    return this;
  }

  @Override
  public T create() {
    if (Context.isOnEventLoopThread()) {
      throw new IllegalStateException("create() blocks and was called on an event loop: use createAsync() there");
    }
    return createAsync().await().proxy();
  }

  @Override
  public Future<RemoteActor<T>> createAsync() {
    Spec<T> spec;
    try {
      spec = validate();
    } catch (InvalidRequestException e) {
      return Future.failedFuture(e);
    }
    return client.create(spec);
  }

  private Spec<T> validate() {
    if (!api.isInterface()) {
      throw new InvalidRequestException(api.getName() + " must be an interface: actors are called through their interface");
    }
    if (!api.isAssignableFrom(impl) || impl.isInterface() || Modifier.isAbstract(impl.getModifiers())) {
      throw new InvalidRequestException(impl.getName() + " must be a concrete class implementing " + api.getName());
    }
    if (!Modifier.isPublic(impl.getModifiers()) || (impl.getEnclosingClass() != null && !Modifier.isStatic(impl.getModifiers()))) {
      throw new InvalidRequestException(impl.getName() + " must be a public top-level or static nested class");
    }
    requirePriority(priority);
    PlacementGroupImpl g = group == null ? null : client.ownGroup(group);
    ResourceRequest resources;
    try {
      resources = g != null ? g.request(bundle).withMaxMemoryMb(maxMemoryMb)
          : ResourceRequest.of(cpus, gpus, gpuMemoryMb, gpuModel, maxMemoryMb);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(e.getMessage());
    }
    return new Spec<>(api, impl, constructor(), args, resources, waitForResources, waitForWorkers, priority, preempt, g,
        bundle);
  }

  /** @throws InvalidRequestException for a priority out of range */
  static int requirePriority(int priority) {
    if (priority < 0 || priority > MAX_PRIORITY) {
      throw new InvalidRequestException("a priority is from 0 to " + MAX_PRIORITY + ", not " + priority);
    }
    return priority;
  }

  private Constructor<?> constructor() {
    for (Constructor<?> c : impl.getConstructors()) {
      if (accepts(c.getParameterTypes(), args)) {
        return c;
      }
    }
    throw new InvalidRequestException(impl.getSimpleName() + " has no public constructor that takes "
        + java.util.Arrays.stream(args).map(a -> a == null ? "null" : a.getClass().getSimpleName()).toList());
  }

  private static boolean accepts(Class<?>[] params, Object[] values) {
    if (params.length != values.length) {
      return false;
    }
    for (int i = 0; i < params.length; i++) {
      Class<?> p = params[i].isPrimitive() ? box(params[i]) : params[i];
      if (values[i] == null ? params[i].isPrimitive() : !p.isInstance(values[i])) {
        return false;
      }
    }
    return true;
  }

  private static Class<?> box(Class<?> primitive) {
    return java.lang.invoke.MethodType.methodType(primitive).wrap().returnType();
  }
}
